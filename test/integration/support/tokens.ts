import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import * as vscode from 'vscode';

export interface Token { c: string; t: string }

/** The parts of vscode-textmate and vscode-oniguruma used here (both ship inside VS Code). */
interface TmGrammar { tokenizeLine(line: string, state: unknown): { tokens: { startIndex: number; endIndex: number; scopes: string[] }[]; ruleStack: unknown } }
interface TextMate {
  INITIAL: unknown;
  parseRawGrammar(text: string, file: string): unknown;
  Registry: new (opts: { onigLib: Promise<unknown>; loadGrammar(scope: string): Promise<unknown> }) => { loadGrammar(scope: string): Promise<TmGrammar | null> };
}
interface Oniguruma {
  loadWASM(data: ArrayBuffer): Promise<void>;
  OnigScanner: new (patterns: string[]) => unknown;
  OnigString: new (s: string) => unknown;
}

/**
 * Tokens of a file as VS Code's TextMate engine gives them: `_workbench.captureSyntaxTokens` (what VS Code's
 * own colorize tests use) where the workbench has it; the web workbench (code-server) does not register that
 * command, so there the same engine — vscode-textmate and vscode-oniguruma shipped inside the VS Code under
 * test (`vscode.env.appRoot`) — runs the extension's grammar with VS Code's diff grammar embedded.
 */
export async function captureTokens(uri: vscode.Uri, grammarFile: string): Promise<{ engine: string; tokens: Token[] }> {
  const commands = await vscode.commands.getCommands(true);
  if (commands.includes('_workbench.captureSyntaxTokens')) {
    const raw = await vscode.commands.executeCommand<Token[]>('_workbench.captureSyntaxTokens', uri);
    return { engine: '_workbench.captureSyntaxTokens', tokens: raw.map((x) => ({ c: x.c, t: x.t })) };
  }
  const root = vscode.env.appRoot;
  const load = createRequire(path.join(root, 'package.json'));
  const tm = load('vscode-textmate') as TextMate;
  const onig = load('vscode-oniguruma') as Oniguruma;
  const wasm = fs.readFileSync(load.resolve('vscode-oniguruma/release/onig.wasm'));
  await onig.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength)).catch(() => undefined); // once per process
  const grammars: Record<string, string> = {
    'text.mail.kernel-review': grammarFile,
    'source.diff': path.join(root, 'extensions', 'diff', 'syntaxes', 'diff.tmLanguage.json'),
  };
  const registry = new tm.Registry({
    onigLib: Promise.resolve({ createOnigScanner: (p: string[]) => new onig.OnigScanner(p), createOnigString: (s: string) => new onig.OnigString(s) }),
    loadGrammar: async (scope: string) => (grammars[scope] ? tm.parseRawGrammar(fs.readFileSync(grammars[scope], 'utf8'), grammars[scope]) : null),
  });
  const grammar = await registry.loadGrammar('text.mail.kernel-review');
  if (!grammar) throw new Error('the review-mail grammar did not load');
  const doc = await vscode.workspace.openTextDocument(uri);
  const tokens: Token[] = [];
  let state = tm.INITIAL;
  for (let i = 0; i < doc.lineCount; i++) {
    const line = doc.lineAt(i).text;
    const r = grammar.tokenizeLine(line, state);
    for (const t of r.tokens) tokens.push({ c: line.slice(t.startIndex, t.endIndex), t: t.scopes.join(' ') });
    state = r.ruleStack;
  }
  return { engine: `vscode-textmate from ${root}`, tokens };
}
