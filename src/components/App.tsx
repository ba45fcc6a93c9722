/** The studio shell. The editor, Conductor panel and run views arrive in later issues. */
export function App() {
  return (
    <main className="app" data-testid="app">
      <header className="app-header">
        <h1>Conductor Studio</h1>
        <p>A local Conductor model designs a team of worker LLMs for your question; you see, edit and run it.</p>
      </header>
    </main>
  );
}
