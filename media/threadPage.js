// Thread page: clicking a comment link asks the extension to open the comment at its source line.
(function () {
  const vscode = acquireVsCodeApi();
  document.addEventListener('click', (e) => {
    const a = e.target instanceof Element ? e.target.closest('a[data-comment]') : null;
    if (!a) return;
    e.preventDefault();
    vscode.postMessage({ type: 'openComment', id: a.getAttribute('data-comment') });
  });
})();
