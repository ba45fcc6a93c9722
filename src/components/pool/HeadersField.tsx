import { useState } from "react";
import { isPlainHeader } from "../../engine/pool/headers.ts";
import type { Worker } from "../../engine/schema/worker.ts";
import { headerSecretId, originOf } from "../../state/slices/keybinding.ts";
import { removeHeader, setHeader, setHeaderSecret } from "../../state/storage/keyring.ts";
import { KeyMovedNote } from "./KeyMovedNote.tsx";
import { useHeldSecret } from "./useHeldSecret.ts";

/** One custom header: its value (a password field while secret), the secret mark, remove. */
function HeaderRow({ worker, name }: { worker: Worker; name: string }) {
  const plain = isPlainHeader(worker, name);
  const id = headerSecretId(worker.id, name);
  const origin = originOf(worker.baseURL);
  const { state, held, from } = useHeldSecret(id, origin);
  const value = plain ? (worker.headers?.[name] ?? "") : state === "bound" ? held : "";
  return (
    <li className="header-row" data-testid="header-row" data-header-name={name}>
      <code className="header-name">{name}</code>
      <input
        aria-label={`Value of ${name}`}
        data-testid="header-value"
        type={plain ? "text" : "password"}
        autoComplete="off"
        spellCheck={false}
        placeholder={plain ? "" : "secret: kept with the keys"}
        value={value}
        onChange={(e) => setHeader(worker.id, name, e.target.value, !plain)}
      />
      <label
        className="checkbox small"
        title="A secret value is kept with the keys, never in files"
      >
        <input
          type="checkbox"
          data-testid="header-secret"
          checked={!plain}
          onChange={(e) => setHeaderSecret(worker.id, name, e.target.checked)}
        />
        secret
      </label>
      <button
        type="button"
        aria-label={`Remove header ${name}`}
        data-testid="header-remove"
        onClick={() => removeHeader(worker.id, name)}
      >
        ×
      </button>
      {!plain && state === "moved" && (
        <KeyMovedNote id={id} from={from} to={origin} what="header value" />
      )}
    </li>
  );
}

/**
 * A worker's custom headers. Every value is a secret unless the user unticks "secret": secret
 * values live with the keys (same opt-in) and files keep only the header's name.
 */
export function HeadersField({ worker }: { worker: Worker }) {
  const [name, setName] = useState("");
  const [value, setValue] = useState("");
  const [secret, setSecret] = useState(true);
  const names = Object.keys(worker.headers ?? {});
  const valid = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name);
  return (
    <details className="span2 headers-field" data-testid="headers-field" open={names.length > 0}>
      <summary>Custom headers ({names.length})</summary>
      <ul className="header-list">
        {names.map((n) => (
          <HeaderRow key={n} worker={worker} name={n} />
        ))}
      </ul>
      <span className="row">
        <input
          aria-label="New header name"
          data-testid="header-add-name"
          placeholder="Header-Name"
          value={name}
          onChange={(e) => setName(e.target.value.trim())}
        />
        <input
          aria-label="New header value"
          data-testid="header-add-value"
          type={secret ? "password" : "text"}
          autoComplete="off"
          placeholder="value"
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
        <label className="checkbox small">
          <input
            type="checkbox"
            data-testid="header-add-secret"
            checked={secret}
            onChange={(e) => setSecret(e.target.checked)}
          />
          secret
        </label>
        <button
          type="button"
          data-testid="header-add"
          disabled={!valid}
          onClick={() => {
            setHeader(worker.id, name, value, secret);
            setName("");
            setValue("");
            setSecret(true);
          }}
        >
          Add header
        </button>
      </span>
    </details>
  );
}
