import { useEffect, useRef } from 'preact/hooks';

export interface ConfirmRequest {
  title: string;
  message: string;
  confirm: string;
  onConfirm(): Promise<void>;
}

/** Asks first (MCP-46's Remove): a modal dialog, Escape or Cancel backs out, the focus comes back. */
export function ConfirmDialog({ request, onClose }: { request: ConfirmRequest; onClose(): void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  return (
    <dialog ref={dialog} aria-labelledby="confirm-title" aria-describedby="confirm-message" onClose={onClose}>
      <h2 id="confirm-title">{request.title}</h2>
      <p id="confirm-message">{request.message}</p>
      <div class="actions">
        <button type="button" onClick={() => dialog.current?.close()} autofocus>
          Cancel
        </button>
        <button
          type="button"
          class="danger"
          onClick={() => {
            dialog.current?.close();
            void request.onConfirm();
          }}
        >
          {request.confirm}
        </button>
      </div>
    </dialog>
  );
}
