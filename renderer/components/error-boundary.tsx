import { Component, type ErrorInfo as ReactErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface BoundaryProps {
  /** What the boundary guards, in words ("the audit trail"), for the message. */
  what: string;
  children: ReactNode;
}

interface BoundaryState {
  error: Error | null;
}

/**
 * Keeps a failing view from blanking the window: the header and navigation
 * stay usable, the view says what failed, and "Try again" renders it afresh.
 */
export class ErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): BoundaryState {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: Error, info: ReactErrorInfo): void {
    // The console is the only place a developer sees the component stack; it holds no secret.
    console.error(`Privacy Desk: ${this.props.what} failed to render`, error, info.componentStack);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return <ViewFailed what={this.props.what} error={this.state.error} onRetry={() => this.setState({ error: null })} />;
  }
}

function ViewFailed({ what, error, onRetry }: { what: string; error: Error; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <section className="error-panel view-failed" role="alert">
      <p className="error-panel__title">
        <span aria-hidden="true" className="error-panel__icon">!</span>
        {t('viewError.title', { what })}
      </p>
      <p className="error-panel__message">{t('viewError.body')}</p>
      <p className="error-panel__message">
        <code className="selectable">{error.message || error.name}</code>
      </p>
      <button type="button" className="button" onClick={onRetry}>
        {t('viewError.tryAgain')}
      </button>
    </section>
  );
}
