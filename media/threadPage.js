// Thread page: clicking a comment link asks the extension to open the comment at its source line;
// the Import button (Open With view of a mail file) asks it to import the file.
(function () {
  const vscode = acquireVsCodeApi();
  document.addEventListener('click', (e) => {
    const el = e.target instanceof Element ? e.target : null;
    if (el && el.closest('button[data-import]')) {
      vscode.postMessage({ type: 'import' });
      return;
    }
    const a = el ? el.closest('a[data-comment]') : null;
    if (!a) return;
    e.preventDefault();
    vscode.postMessage({ type: 'openComment', id: a.getAttribute('data-comment') });
  });
})();
