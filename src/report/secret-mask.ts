import type { Exchange } from '../transcript/exchange.js';
import { escapeHtml } from './html/escape.js';
import { xmlText } from './xml-text.js';
import { isSecretHeader, isSecretKey, REDACTED, type Mask } from '../core/redact.js';

/**
 * Values shorter than this are not hidden wherever they occur: a 1–5 character value ("1", "dev", "on")
 * would hide every occurrence of common text. Such a value is masked only as a whole: a header's value
 * after its name ("X-Env: dev", "x-env":"dev") or a field that is nothing else (a progress note).
 */
export const MIN_SECRET_LENGTH = 6;

// A cut ("abcd…") that keeps fewer characters of a secret than this says too little about it to hide.
const MIN_CUT_PREFIX = 3;
const CUT = '…';

/** What a text is: its escaping decides the form in which a secret appears in it. */
export type OutputFormat = 'text' | 'json' | 'xml' | 'html';

// "Bearer abc", "Basic abc", "Token abc": the credential after the scheme is a secret of its own.
const SCHEME_VALUE = /^[A-Za-z][A-Za-z0-9._~+-]*\s+(\S+)$/;
// scheme://user:password@host, as in a provisioner's connection strings or the target URL.
const URL_PASSWORD = /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/?#@]*:([^\s/?#@]+)@/gi;
// What a masked transcript or bundle already holds in a secret's place: it hides nothing, and is kept as it is.
const PLACEHOLDER = /^\[redacted(?: #\d+)?\]$/;
// The request headers the kit's client sets itself; every other header of a recorded request is the user's.
const KIT_REQUEST_HEADERS = new Set(['accept', 'content-type']);

function jsonInner(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

function regexLiteral(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** A header name matched in any case: exchanges keep names lower-case, curl lines capitalise them. */
function anyCase(name: string): string {
  return [...name].map((c) => (c.toLowerCase() !== c.toUpperCase() ? `[${c.toLowerCase()}${c.toUpperCase()}]` : regexLiteral(c))).join('');
}

/**
 * The spellings of a value in a text of the format: raw or as HTML or XML writes it (a provider's error page
 * echoes it so), each escaped once (a JSON string) or twice (a body kept as a string inside JSON). Only escaped
 * forms are sought in escaped formats, so that a match always lies inside a string or text node and replacing
 * it keeps the JSON, XML or HTML well formed.
 */
function formsOf(value: string, format: OutputFormat): string[] {
  const bases = [...new Set([value, escapeHtml(value), xmlText(value)])].flatMap((base) => {
    const once = jsonInner(base);
    return [base, once, jsonInner(once)];
  });
  const forms =
    format === 'json' ? bases.filter((form, i) => i % 3 !== 0 || form === jsonInner(form))
    : format === 'xml' ? bases.map(xmlText)
    : format === 'html' ? bases.map(escapeHtml)
    // Plain text also holds shell-quoted curl arguments, where ' is written '\''.
    : [...bases, value.replace(/'/g, "'\\''")];
  return [...new Set(forms)].filter((form) => form !== '');
}

interface Alternative {
  source: string;
  secret: string;
  /** Length of the literal it matches: longer spellings are tried first, so an escaped form wins over its raw part. */
  weight: number;
}

interface Compiled {
  pattern: RegExp | undefined;
  secrets: string[];
  /** Every spelling of a long secret with the secret it spells, for cuts. */
  forms: Array<[string, string]>;
}

/**
 * The one masking step every byte leaving the kit goes through: the values of the user's headers, and the
 * values the run saw under secret-looking keys, replaced by a placeholder in every spelling the output can
 * hold them in, inside longer text too, and where a long text was cut in the middle of one.
 */
export class SecretMask {
  private readonly secrets = new Set<string>();
  /** Short header values, by header name: hidden only as the header's whole value. */
  private readonly shortHeaders = new Map<string, Set<string>>();
  private compiled = new Map<OutputFormat, Compiled>();

  /** True for the mask of `--show-secrets`: it hides nothing, and writers skip their own redaction too. */
  readonly showsSecrets: boolean;

  constructor(private readonly placeholder: Mask = () => REDACTED, options: { showsSecrets?: boolean } = {}) {
    this.showsSecrets = options.showsSecrets ?? false;
  }

  /** A mask that hides nothing: what `--show-secrets` asks for. */
  static none(): SecretMask {
    return new SecretMask(undefined, { showsSecrets: true });
  }

  /** The same secrets, replaced by another placeholder, e.g. numbered ones in a transcript that is judged again. */
  withPlaceholder(placeholder: Mask): SecretMask {
    const copy = new SecretMask(placeholder, { showsSecrets: this.showsSecrets });
    for (const secret of this.secrets) copy.secrets.add(secret);
    for (const [name, values] of this.shortHeaders) copy.shortHeaders.set(name, new Set(values));
    return copy;
  }

  /** A header the user gave: its whole value, and the credential after an auth scheme (`Bearer xyz` → also `xyz`). */
  addHeader(name: string, value: string): this {
    if (this.showsSecrets) return this;
    const trimmed = value.trim();
    if (trimmed === '') return this;
    if (trimmed.length >= MIN_SECRET_LENGTH) this.add(trimmed);
    else this.addShortHeader(name, trimmed);
    const credential = SCHEME_VALUE.exec(trimmed)?.[1];
    if (credential !== undefined && credential.length >= MIN_SECRET_LENGTH) this.add(credential);
    return this;
  }

  /**
   * A header as the user wrote it (`Name: value`), well formed or not: the usage error about a malformed one
   * quotes it, so it is hidden whole, and so is its last word (`Authorization Bearer xyz` → also `xyz`).
   */
  addHeaderLine(line: string): this {
    const colon = line.indexOf(':');
    if (colon > 0) return this.addHeader(line.slice(0, colon).trim(), line.slice(colon + 1));
    const trimmed = line.trim();
    this.add(trimmed);
    const words = trimmed.split(/\s+/);
    if (words.length > 1) this.add(words[words.length - 1]!);
    return this;
  }

  addHeaders(headers: Readonly<Record<string, string>>): this {
    for (const [name, value] of Object.entries(headers)) this.addHeader(name, value);
    return this;
  }

  /** A value to hide wherever it occurs; one shorter than MIN_SECRET_LENGTH is ignored (see there), and so is a placeholder. */
  add(secret: string): this {
    if (this.showsSecrets || secret.length < MIN_SECRET_LENGTH || this.secrets.has(secret) || PLACEHOLDER.test(secret)) return this;
    this.secrets.add(secret);
    this.compiled.clear();
    return this;
  }

  /** The password of a URL such as the target's `https://user:password@host`. */
  addUrl(url: string): this {
    for (const match of url.matchAll(URL_PASSWORD)) this.add(match[1]!);
    return this;
  }

  /** Learns what the run saw: values under secret-looking keys in every body, and credential headers' values. */
  learnExchanges(exchanges: readonly Exchange[]): this {
    // The client shares equal headers and stored bodies between exchanges (a poll answered alike thousands of
    // times): each shared object is learnt once, not walked again for every exchange that holds it.
    const learnt = new WeakSet<object>();
    const first = (part: object): boolean => !learnt.has(part) && learnt.add(part) !== undefined;
    for (const exchange of exchanges) {
      if (first(exchange.request.headers)) {
        for (const [name, value] of Object.entries(exchange.request.headers)) if (isSecretHeader(name)) this.addHeader(name, value);
      }
      if (exchange.request.body !== undefined) this.learnBody(exchange.request.body);
      const response = exchange.response;
      if (!response || !first(response)) continue;
      if (first(response.headers)) {
        for (const [name, value] of Object.entries(response.headers)) if (isSecretHeader(name)) this.add(value.trim());
      }
      if (response.json.ok) {
        if (first(response.json)) this.learnValue(response.json.value);
      } else this.addUrl(response.body);
    }
    return this;
  }

  /**
   * Learns the user's own secrets from recorded requests, as the run knew them from its flags: the value of
   * every header the kit does not set itself (the run's `--header` values), and the password of each URL.
   */
  learnRequestHeaders(exchanges: readonly Exchange[]): this {
    for (const exchange of exchanges) {
      this.addUrl(exchange.request.url);
      for (const [name, value] of Object.entries(exchange.request.headers)) {
        if (!KIT_REQUEST_HEADERS.has(name.toLowerCase())) this.addHeader(name, value);
      }
    }
    return this;
  }

  /** Learns a document the user gave (a config file's values): values under secret-looking keys, passwords in URLs. */
  learnJson(value: unknown): this {
    if (!this.showsSecrets) this.learnValue(value);
    return this;
  }

  private learnBody(body: string): void {
    try {
      this.learnValue(JSON.parse(body) as unknown);
    } catch {
      this.addUrl(body);
    }
  }

  private learnValue(value: unknown): void {
    try {
      this.walk(value);
    } catch (error) {
      // A body nested thousands deep is too deep to walk; the structural redaction shows it as text.
      if (!(error instanceof RangeError)) throw error;
    }
  }

  private walk(value: unknown): void {
    if (typeof value === 'string') {
      this.addUrl(value);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    for (const [key, inner] of Object.entries(value)) {
      if (isSecretKey(key) && inner !== null && inner !== '') {
        if (typeof inner === 'string') this.add(inner);
        else if (typeof inner === 'object') this.add(JSON.stringify(inner));
      }
      this.walk(inner);
    }
  }

  private addShortHeader(name: string, value: string): void {
    if (PLACEHOLDER.test(value)) return;
    const key = name.toLowerCase();
    const values = this.shortHeaders.get(key) ?? new Set<string>();
    values.add(value);
    this.shortHeaders.set(key, values);
    this.compiled.clear();
  }

  /** Whether there is anything to hide. */
  get isEmpty(): boolean {
    return this.secrets.size === 0 && this.shortHeaders.size === 0;
  }

  /** A text of the given format with every secret replaced. */
  mask(text: string, format: OutputFormat = 'text'): string {
    if (this.showsSecrets || this.isEmpty || text === '') return text;
    const { pattern, secrets, forms } = this.compile(format);
    let masked = pattern === undefined ? text : text.replace(pattern, (...args: unknown[]) => this.placeholder(secrets[groupOf(args)]!));
    if (masked.includes(CUT)) masked = this.maskCuts(masked, forms);
    return masked;
  }

  text(text: string): string {
    return this.mask(text, 'text');
  }

  json(text: string): string {
    return this.mask(text, 'json');
  }

  xml(text: string): string {
    return this.mask(text, 'xml');
  }

  html(text: string): string {
    return this.mask(text, 'html');
  }

  /** A field shown on its own (a progress note): hidden whole when it is a secret, however short. */
  field(text: string): string {
    if (this.showsSecrets) return text;
    const trimmed = text.trim();
    if (this.secrets.has(trimmed)) return this.placeholder(trimmed);
    for (const values of this.shortHeaders.values()) if (values.has(trimmed)) return this.placeholder(trimmed);
    return this.text(text);
  }

  /** "abcdef…" where a long text was cut inside a secret: the kept part is a secret's beginning. */
  private maskCuts(text: string, forms: ReadonlyArray<[string, string]>): string {
    let out = '';
    let from = 0;
    for (let at = text.indexOf(CUT); at !== -1; at = text.indexOf(CUT, at + 1)) {
      const before = text.slice(from, at);
      let best: [number, string] | undefined;
      for (const [form, secret] of forms) {
        for (let length = Math.min(form.length - 1, before.length); length >= MIN_CUT_PREFIX; length--) {
          if (before.endsWith(form.slice(0, length))) {
            if (best === undefined || length > best[0]) best = [length, secret];
            break;
          }
        }
      }
      out += best === undefined ? before : before.slice(0, before.length - best[0]) + this.placeholder(best[1]);
      from = at;
    }
    return out + text.slice(from);
  }

  private compile(format: OutputFormat): Compiled {
    const cached = this.compiled.get(format);
    if (cached) return cached;
    const alternatives: Alternative[] = [];
    const forms: Array<[string, string]> = [];
    for (const secret of this.secrets) {
      for (const form of formsOf(secret, format)) {
        alternatives.push({ source: regexLiteral(form), secret, weight: form.length });
        forms.push([form, secret]);
      }
    }
    for (const [name, values] of this.shortHeaders) {
      for (const value of values) {
        for (const form of formsOf(value, format)) {
          // After "Name:" (a header line, a curl -H) or "name": " (a JSON headers object), up to the value's end.
          const after = `(?:${anyCase(name)}:[ \\t]*|${anyCase(name)}(?:\\\\?"|&quot;)\\s*:\\s*(?:\\\\?"|&quot;))`;
          alternatives.push({ source: `(?<=${after})${regexLiteral(form)}(?=[\\s'"&\\\\]|$)`, secret: value, weight: form.length });
        }
      }
    }
    alternatives.sort((a, b) => b.weight - a.weight);
    const compiled: Compiled = {
      pattern: alternatives.length === 0 ? undefined : new RegExp(alternatives.map((a) => `(${a.source})`).join('|'), 'g'),
      secrets: alternatives.map((a) => a.secret),
      forms: forms.sort((a, b) => b[0].length - a[0].length),
    };
    this.compiled.set(format, compiled);
    return compiled;
  }
}

/** Which alternative matched: the index of the first capture group that took part in the match. */
function groupOf(args: readonly unknown[]): number {
  for (let i = 1; i < args.length; i++) {
    if (typeof args[i] === 'number') break;
    if (args[i] !== undefined) return i - 1;
  }
  return 0;
}
