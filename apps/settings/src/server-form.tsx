import { useEffect, useState } from 'preact/hooks';
import type { Ref } from 'preact';
import type { FieldProblem } from '@blitz/client/api-types';
import { ApiError } from '@blitz/client/api-error';
import type { PageApi } from './page-api.js';
import { go, hrefOf } from './route.js';
import {
  CONTROL_ORDER,
  controlFor,
  emptyForm,
  formFromConfig,
  formFromPasted,
  formToEntry,
  type FormValues,
  type Transport,
} from './server-form-model.js';
import { readPastedServer } from './pasted-server.js';
import { stateText } from './state-text.js';
import type { Snapshot } from './use-snapshot.js';
import { keepSaveWarnings } from './save-warnings.js';

interface Props {
  api: PageApi;
  snapshot: Snapshot;
  /** The server being edited; undefined: a new one. */
  editing: string | undefined;
  /** A field to give the focus to once the form is filled (a remedy's link). */
  focus?: string;
  readOnly: boolean;
  refresh(): Promise<void>;
  headingRef: Ref<HTMLHeadingElement>;
}

type TextField = 'name' | 'command' | 'args' | 'env' | 'url' | 'headers' | 'prefix' | 'timeout' | 'agents' | 'tools';

/** Where a problem's link in the summary takes the focus. */
const controlId = (control: keyof FormValues | undefined, form: FormValues) =>
  control === 'transport' ? `field-transport-${form.transport}` : `field-${control}`;

/**
 * Add server / Edit (MCP-46), field for field. Nothing is saved while the daemon's own
 * validation (the CLI's) finds a problem; every problem is listed under the form, and each
 * also under its field.
 */
export function ServerForm({ api, snapshot, editing, focus, readOnly, refresh, headingRef }: Props) {
  const [form, setForm] = useState<FormValues | undefined>(editing === undefined ? emptyForm() : undefined);
  const [problems, setProblems] = useState<FieldProblem[]>([]);
  const [failure, setFailure] = useState<string | undefined>(undefined);
  const [saving, setSaving] = useState(false);
  const [pasted, setPasted] = useState('');
  const [pasteNote, setPasteNote] = useState<{ ok: boolean; text: string } | undefined>(undefined);

  useEffect(() => {
    if (editing === undefined) return;
    api.server(editing).then(
      (config) => setForm(formFromConfig(config)),
      (err: unknown) => setFailure((err as Error).message),
    );
  }, [api, editing]);

  const filled = form !== undefined;
  useEffect(() => {
    if (filled && focus) document.getElementById(`field-${focus}`)?.focus();
  }, [filled, focus]);

  const status = editing === undefined ? undefined : snapshot.status?.servers.find((s) => s.name === editing);
  const set = <K extends keyof FormValues>(key: K, value: FormValues[K]) => setForm((f) => (f ? { ...f, [key]: value } : f));
  const problemsOf = (control: keyof FormValues) => problems.filter((p) => controlFor(p.field) === control);
  // The summary lists them as the form shows its fields, the form's own first.
  const ordered = [...problems].sort((a, b) => CONTROL_ORDER.indexOf(controlFor(a.field)!) - CONTROL_ORDER.indexOf(controlFor(b.field)!));

  const fillFromJson = () => {
    const found = readPastedServer(pasted);
    if ('error' in found) return setPasteNote({ ok: false, text: `Nothing filled: ${found.error}.` });
    setForm((f) => (f ? formFromPasted(f, found) : f));
    setProblems([]);
    const notes = [
      `Filled from the JSON${found.name ? ` (server "${found.name}")` : ''}; check it and Save.`,
      found.others.length ? `It has ${found.others.length} more (${found.others.join(', ')}): paste them one at a time.` : '',
      found.ignored.length ? `Not used here: ${found.ignored.join(', ')}.` : '',
    ];
    setPasteNote({ ok: true, text: notes.filter(Boolean).join(' ') });
  };

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
      const saved = await api.save(entry, editing);
      keepSaveWarnings(entry.name, saved.warnings);
      await refresh();
      go({ view: 'server', name: entry.name });
    } catch (err) {
      if (err instanceof ApiError && err.problems.length > 0) setProblems(err.problems.map((text) => ({ message: text, text })));
      else setFailure((err as Error).message);
    } finally {
      setSaving(false);
    }
  };

  const text = (
    field: TextField,
    label: string,
    opts: { hint?: string; multiline?: boolean; placeholder?: string; inputMode?: 'numeric' } = {},
  ) => {
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
        <input
          type="checkbox"
          id={id}
          checked={form![field]}
          onChange={(e) => set(field, e.currentTarget.checked)}
          aria-describedby={`${id}-hint`}
        />
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
          <details class="paste">
            <summary>Paste a server’s JSON from its README</summary>
            <div class="field">
              <label for="field-paste">Its JSON, such as {'{"mcpServers": {"name": {"command": …}}}'}</label>
              <textarea id="field-paste" rows={4} value={pasted} spellcheck={false} onInput={(e) => setPasted(e.currentTarget.value)} />
            </div>
            <button type="button" onClick={fillFromJson} disabled={pasted.trim() === ''}>
              Fill the form
            </button>
            <p aria-live="polite" class={pasteNote?.ok === false ? 'server-error' : 'hint'} data-testid="paste-note">
              {pasteNote?.text}
            </p>
          </details>
          {text('name', 'Name', { hint: 'Letters, digits, ".", "-" and "_"; not the name of another server.' })}
          <fieldset class="transport">
            <legend>How it runs</legend>
            {(['stdio', 'http'] as Transport[]).map((t) => (
              <div class="field check" key={t}>
                <input
                  type="radio"
                  id={`field-transport-${t}`}
                  name="transport"
                  value={t}
                  checked={form.transport === t}
                  onChange={() => set('transport', t)}
                />
                <label for={`field-transport-${t}`}>
                  {t === 'stdio' ? 'A command on this computer (stdio)' : 'A web address (streamable HTTP)'}
                </label>
              </div>
            ))}
          </fieldset>
          {form.transport === 'stdio' ? (
            <fieldset>
              <legend>The command</legend>
              {text('command', 'Command', { placeholder: 'npx' })}
              {text('args', 'Arguments, one a line', { multiline: true })}
              {text('env', 'Environment, NAME=value lines', {
                multiline: true,
                hint: 'Values shown as *** are kept unless you replace them.',
              })}
              {check('sandbox', 'Run it in the OS sandbox', 'On by default; written to the file only when switched off.')}
            </fieldset>
          ) : (
            <fieldset>
              <legend>The web address</legend>
              {text('url', 'URL', { placeholder: 'https://example.com/mcp' })}
              {text('headers', 'Headers, "Name: value" lines', {
                multiline: true,
                hint: 'Values shown as *** are kept unless you replace them.',
              })}
              <p class="hint">
                A server that uses OAuth is signed in to from its own view, once saved (Sign in), or with{' '}
                <code>blitz mcp login {name}</code>.
                {status && status.transport === 'http' && (
                  <> Sign-in: {status.state === 'needsSignIn' ? 'needed' : `not asked for now (${stateText(status, snapshot.at)})`}.</>
                )}
              </p>
            </fieldset>
          )}
          <fieldset>
            <legend>Its tools</legend>
            {text('prefix', 'Prefix of its tool names', {
              hint: 'Its tools are offered as PREFIX__tool, which keeps them apart from another server’s of the same name; empty: their own names.',
            })}
            {check(
              'autoApprove',
              'Run its tools without asking',
              'auto_approve: calls run without a question; a permission rule still applies.',
            )}
            {text('timeout', 'Timeout of one call, in seconds', { hint: 'Empty: 300 seconds.', inputMode: 'numeric' })}
            {text('agents', 'Agents offered its tools', { hint: 'Comma-separated agent names; empty: main only; * for every agent.' })}
            {text('tools', 'Tools offered, one a line', { multiline: true, hint: 'Original tool names; empty: every tool.' })}
          </fieldset>
          <div id="form-problems" class={problems.length ? 'problems' : 'visually-hidden'} tabIndex={-1} role="alert" aria-live="assertive">
            {problems.length > 0 && (
              <>
                <h3>Nothing was saved; fix {problems.length === 1 ? 'this problem' : `these ${problems.length} problems`}:</h3>
                <ul>
                  {ordered.map((p, i) => {
                    const control = controlFor(p.field);
                    if (control === undefined) return <li key={i}>{p.text}</li>;
                    const id = controlId(control, form);
                    return (
                      <li key={i}>
                        <a
                          href={`#${id}`}
                          onClick={(e) => {
                            // The address's #fragment is the page's route: the focus moves, the route stays.
                            e.preventDefault();
                            document.getElementById(id)?.focus();
                          }}
                        >
                          {p.text}
                        </a>
                      </li>
                    );
                  })}
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
