import { useEffect, useState } from 'preact/hooks';
import type { Ref } from 'preact';
import type { FieldProblem } from '@blitz/client/api-types';
import { ApiError } from '@blitz/client/api-error';
import type { PageApi } from './page-api.js';
import { go, hrefOf } from './route.js';
import { controlFor, emptyForm, formFromConfig, formToEntry, type FormValues } from './server-form-model.js';
import { stateText } from './state-text.js';
import type { Snapshot } from './use-snapshot.js';

interface Props {
  api: PageApi;
  snapshot: Snapshot;
  /** The server being edited; undefined: a new one. */
  editing: string | undefined;
  readOnly: boolean;
  refresh(): Promise<void>;
  headingRef: Ref<HTMLHeadingElement>;
}

type TextField = 'name' | 'command' | 'args' | 'env' | 'url' | 'headers' | 'timeout' | 'agents' | 'tools';

/**
 * Add server / Edit (MCP-46), field for field. Nothing is saved while the daemon's own
 * validation (the CLI's) finds a problem; every problem is listed under the form, and each
 * also under its field.
 */
export function ServerForm({ api, snapshot, editing, readOnly, refresh, headingRef }: Props) {
  const [form, setForm] = useState<FormValues | undefined>(editing === undefined ? emptyForm() : undefined);
  const [problems, setProblems] = useState<FieldProblem[]>([]);
  const [failure, setFailure] = useState<string | undefined>(undefined);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (editing === undefined) return;
    api.server(editing).then(
      (config) => setForm(formFromConfig(config)),
      (err: unknown) => setFailure((err as Error).message),
    );
  }, [api, editing]);

  const status = editing === undefined ? undefined : snapshot.status?.servers.find((s) => s.name === editing);
  const set = <K extends keyof FormValues>(key: K, value: FormValues[K]) => setForm((f) => (f ? { ...f, [key]: value } : f));
  const problemsOf = (control: keyof FormValues) => problems.filter((p) => controlFor(p.field) === control);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (!form || saving) return;
    setSaving(true);
    setFailure(undefined);
    try {
      const { entry, problems: lineProblems } = formToEntry(form);
      const found = [...lineProblems, ...(await api.validate(entry, editing)).problems];
      setProblems(found);
      if (found.length > 0) {
        document.getElementById('form-problems')?.focus();
        return;
      }
      await api.save(entry, editing);
      await refresh();
      go({ view: 'server', name: entry.name });
    } catch (err) {
      if (err instanceof ApiError && err.problems.length > 0) setProblems(err.problems.map((text) => ({ message: text, text })));
      else setFailure((err as Error).message);
    } finally {
      setSaving(false);
    }
  };

  const text = (field: TextField, label: string, opts: { hint?: string; multiline?: boolean; placeholder?: string; inputMode?: 'numeric' } = {}) => {
    const id = `field-${field}`;
    const own = problemsOf(field);
    const described = [opts.hint ? `${id}-hint` : '', own.length ? `${id}-problems` : ''].filter(Boolean).join(' ') || undefined;
    const common = {
      id,
      name: field,
      value: form![field],
      'aria-describedby': described,
      'aria-invalid': own.length > 0 ? true : undefined,
      placeholder: opts.placeholder,
      spellcheck: false,
      autocomplete: 'off',
      onInput: (e: Event) => set(field, (e.currentTarget as HTMLInputElement).value),
    };
    return (
      <div class={`field${own.length ? ' invalid' : ''}`}>
        <label for={id}>{label}</label>
        {opts.multiline ? <textarea rows={3} {...common} /> : <input type="text" inputMode={opts.inputMode} {...common} />}
        {opts.hint && (
          <p class="hint" id={`${id}-hint`}>
            {opts.hint}
          </p>
        )}
        <FieldProblems id={`${id}-problems`} problems={own} />
      </div>
    );
  };

  const check = (field: 'sandbox' | 'autoApprove', label: string, hint: string) => {
    const id = `field-${field}`;
    const own = problemsOf(field);
    return (
      <div class="field check">
        <input type="checkbox" id={id} checked={form![field]} onChange={(e) => set(field, e.currentTarget.checked)} aria-describedby={`${id}-hint`} />
        <label for={id}>{label}</label>
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
        <FieldProblems id={`${id}-problems`} problems={own} />
      </div>
    );
  };

  const name = form?.name.trim() || editing || '<name>';
  return (
    <section aria-labelledby="form-heading">
      <h2 id="form-heading" tabIndex={-1} ref={headingRef}>
        {editing === undefined ? 'Add an MCP server' : `Edit ${editing}`}
      </h2>
      {failure && (
        <p class="banner error" role="alert">
          {failure}
        </p>
      )}
      {readOnly && <p class="banner error">settings.toml has problems: fix them in the file before changing servers here.</p>}
      {form && (
        <form onSubmit={submit} noValidate>
          {text('name', 'Name', { hint: 'Letters, digits, ".", "-" and "_"; not the name of another server.' })}
          <fieldset>
            <legend>A command (stdio)</legend>
            {text('command', 'Command', { placeholder: 'npx' })}
            {text('args', 'Arguments, one a line', { multiline: true })}
            {text('env', 'Environment, NAME=value lines', { multiline: true, hint: 'Values shown as *** are kept unless you replace them.' })}
            {check('sandbox', 'Run it in the OS sandbox', 'On by default; written to the file only when switched off.')}
          </fieldset>
          <fieldset>
            <legend>Or a web address (streamable HTTP)</legend>
            {text('url', 'URL', { placeholder: 'https://example.com/mcp' })}
            {text('headers', 'Headers, "Name: value" lines', { multiline: true, hint: 'Values shown as *** are kept unless you replace them.' })}
            <p class="hint">
              To sign in to a server that uses OAuth, run <code>blitz mcp login {name}</code> in a terminal.
              {status && status.transport === 'http' && <> Sign-in: {status.state === 'needsSignIn' ? 'needed' : `not asked for now (${stateText(status, snapshot.at)})`}.</>}
            </p>
          </fieldset>
          <fieldset>
            <legend>Its tools</legend>
            {check('autoApprove', 'Run its tools without asking', 'auto_approve: calls run without a question; a permission rule still applies.')}
            {text('timeout', 'Timeout of one call, in seconds', { hint: 'Empty: 300 seconds.', inputMode: 'numeric' })}
            {text('agents', 'Agents offered its tools', { hint: 'Comma-separated agent names; empty: main only; * for every agent.' })}
            {text('tools', 'Tools offered, one a line', { multiline: true, hint: 'Original tool names; empty: every tool.' })}
          </fieldset>
          <div id="form-problems" class={problems.length ? 'problems' : 'visually-hidden'} tabIndex={-1} role="alert" aria-live="assertive">
            {problems.length > 0 && (
              <>
                <h3>Nothing was saved; fix {problems.length === 1 ? 'this problem' : `these ${problems.length} problems`}:</h3>
                <ul>
                  {problems.map((p, i) => (
                    <li key={i}>{p.text}</li>
                  ))}
                </ul>
              </>
            )}
          </div>
          <div class="actions">
            <button type="submit" class="primary" disabled={readOnly || saving}>
              {saving ? 'Saving…' : 'Save'}
            </button>
            <a class="button" href={editing === undefined ? hrefOf({ view: 'list' }) : hrefOf({ view: 'server', name: editing })}>
              Cancel
            </a>
          </div>
        </form>
      )}
    </section>
  );
}

function FieldProblems({ id, problems }: { id: string; problems: FieldProblem[] }) {
  if (problems.length === 0) return null;
  return (
    <ul class="field-problems" id={id}>
      {problems.map((p, i) => (
        <li key={i}>{p.message}</li>
      ))}
    </ul>
  );
}
