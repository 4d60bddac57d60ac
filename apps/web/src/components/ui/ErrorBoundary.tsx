import { Component, type ReactNode } from 'react';

interface ErrorBoundaryProps {
  /** Shown instead of the children once they threw (a lazy chunk that could not be fetched included). */
  fallback: ReactNode;
  /** The children are tried again when this changes (the page's path). */
  resetKey?: unknown;
  children: ReactNode;
}

/**
 * Keeps a failure where it happened: without a boundary React removes the whole app on an error
 * thrown while rendering, leaving a blank page (a lazy screen's file missing after a deploy, or
 * not fetched before the connection dropped).
 */
export class ErrorBoundary extends Component<ErrorBoundaryProps, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  componentDidUpdate(previous: ErrorBoundaryProps): void {
    if (this.state.failed && previous.resetKey !== this.props.resetKey) this.setState({ failed: false });
  }

  render(): ReactNode {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
