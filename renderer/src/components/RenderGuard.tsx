import { Component, type ReactNode } from 'react';

interface RenderGuardProps {
  /** What shows instead of children that failed to render. */
  fallback: ReactNode;
  children: ReactNode;
  /** When it changes, the children are tried again (new content may render). */
  resetKey?: unknown;
}

interface RenderGuardState {
  hasFailed: boolean;
}

/**
 * Shows `fallback` in place of children that threw while rendering. Without one, React unmounts the whole window
 * on such an error: one message it cannot draw would leave a blank window, and the window reopens on the
 * conversation it last had open.
 */
export class RenderGuard extends Component<RenderGuardProps, RenderGuardState> {
  override state: RenderGuardState = { hasFailed: false };

  static getDerivedStateFromError(): RenderGuardState {
    return { hasFailed: true };
  }

  override componentDidUpdate(previous: RenderGuardProps): void {
    if (this.state.hasFailed && previous.resetKey !== this.props.resetKey)
      this.setState({ hasFailed: false });
  }

  override render(): ReactNode {
    return this.state.hasFailed ? this.props.fallback : this.props.children;
  }
}
