import type * as vscode from 'vscode';

/** Owns disposables and disposes them in reverse order, once. */
export class DisposableStore implements vscode.Disposable {
  private readonly items: vscode.Disposable[] = [];
  private disposed = false;

  add<T extends vscode.Disposable>(d: T): T {
    if (this.disposed) d.dispose();
    else this.items.push(d);
    return d;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const d of this.items.splice(0).reverse()) {
      try {
        d.dispose();
      } catch {
        // one failing disposable must not keep the others alive
      }
    }
  }
}

/** Base class for objects that own disposables (`this.register(x)`). */
export abstract class Disposable implements vscode.Disposable {
  protected readonly store = new DisposableStore();
  protected register<T extends vscode.Disposable>(d: T): T {
    return this.store.add(d);
  }
  dispose(): void {
    this.store.dispose();
  }
}
