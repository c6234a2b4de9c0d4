/** Pretty JSON for the token inspector (the one place where raw JSON is what people expect). */
export function JsonBlock({ value, label }: { value: unknown; label: string }) {
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  return (
    <pre className="code-block" data-label={label} tabIndex={0}>
      <code>{text}</code>
    </pre>
  );
}
