/** The button that opens Settings → Connections at the Gemini card, wherever Deputy asks for a key. */
export function OpenConnectionsButton({ testId, onOpen }: { testId: string; onOpen: () => void }) {
  return (
    <button type="button" className="button" data-testid={testId} onClick={onOpen}>
      Open Settings → Connections
    </button>
  );
}
