import { Component, type ReactNode } from 'react';
import messages from '../../messages/ja.json';
import { ChunkLoadError } from './screen-loader';

interface State {
  error: Error | null;
}

/** Shows a failed screen chunk as a message naming the screen by its title, instead of a blank frame. */
export class ScreenErrorBoundary extends Component<{ children: ReactNode; resetKey: string }, State> {
  state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  componentDidUpdate(previous: { resetKey: string }) {
    if (previous.resetKey !== this.props.resetKey && this.state.error) this.setState({ error: null });
  }

  render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <div className="notice notice--error" role="alert">
        {/* Not the server's texts (messages "api"): the app shell would carry them all (ADR 029). */}
        <p>{error instanceof ChunkLoadError ? error.userMessage : messages.client.unknown}</p>
        <button type="button" className="button" onClick={() => window.location.reload()}>
          {messages.app.reload}
        </button>
      </div>
    );
  }
}
