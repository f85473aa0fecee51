import { ENVIRONMENT_NAME_PATTERN, PROJECT_ID_PATTERN, SECRET_NAME_PATTERN } from '@contract/identifiers';

/*
 * References in a secret's value: `${NAME}` (a secret of the same environment), `${ENV.NAME}` (of
 * another environment of the project) and `${prj_….ENV.NAME}` (of another project's environment).
 * `$${` is written as a literal `${`. Anything else stays as written, a `${` that opens no well-formed
 * reference included, so that values stored before references existed keep their meaning unless they
 * hold a well-formed one.
 */

/** Where a reference points: a secret of a project's environment. */
export interface ReferenceTarget {
  readonly projectId: string;
  readonly environment: string;
  readonly name: string;
}

/** One piece of a parsed value: literal text, or a reference as written (`${…}`) and its target. */
export type ValuePart = { readonly text: string } | { readonly reference: string; readonly target: ReferenceTarget };

/** The project and environment a value is read in: where `${NAME}` and `${ENV.NAME}` point. */
export interface ValuePlace {
  readonly projectId: string;
  readonly environment: string;
}

/** An anchored pattern (`^…$`) without its anchors, to be part of another. */
const whole = (pattern: RegExp) => pattern.source.slice(1, -1);

/** `$${` (an escape), or `${` and what may follow it up to `}`: the body is judged after the match. */
const TOKEN = /\$\$\{|\$\{([^}]*)\}/g;
const NAME = new RegExp(`^${whole(SECRET_NAME_PATTERN)}$`);
const IN_ENVIRONMENT = new RegExp(`^(${whole(ENVIRONMENT_NAME_PATTERN)})\\.(${whole(SECRET_NAME_PATTERN)})$`);
const IN_PROJECT = new RegExp(
  `^(${whole(PROJECT_ID_PATTERN)})\\.(${whole(ENVIRONMENT_NAME_PATTERN)})\\.(${whole(SECRET_NAME_PATTERN)})$`,
);

/** The target a reference's body (what is between `${` and `}`) names from `place`, if it is well-formed. */
const targetOf = (body: string, place: ValuePlace): ReferenceTarget | undefined => {
  if (NAME.test(body)) return { projectId: place.projectId, environment: place.environment, name: body };
  const inEnvironment = IN_ENVIRONMENT.exec(body);
  if (inEnvironment) {
    return { projectId: place.projectId, environment: inEnvironment[1] as string, name: inEnvironment[2] as string };
  }
  const inProject = IN_PROJECT.exec(body);
  if (inProject) {
    return {
      projectId: inProject[1] as string,
      environment: inProject[2] as string,
      name: inProject[3] as string,
    };
  }
  return undefined;
};

/** A value as literal text and references, in order, with `$${` unescaped; adjacent text joined. */
export const parseValue = (value: string, place: ValuePlace): ValuePart[] => {
  const parts: ValuePart[] = [];
  const token = new RegExp(TOKEN);
  let text = '';
  let from = 0;
  for (let match = token.exec(value); match !== null; match = token.exec(value)) {
    text += value.slice(from, match.index);
    const body = match[1];
    const target = body === undefined ? undefined : targetOf(body, place);
    if (target === undefined) {
      // `$${`, or a `${` that opens no reference: a literal `${`, and what follows it is read again (`${${A}`).
      text += '${';
      from = match.index + (body === undefined ? 3 : 2);
      token.lastIndex = from;
    } else {
      if (text !== '') parts.push({ text });
      text = '';
      parts.push({ reference: match[0], target });
      from = match.index + match[0].length;
    }
  }
  text += value.slice(from);
  if (text !== '') parts.push({ text });
  return parts;
};

/** The references of a value, in order (repeats included). */
export const referencesIn = (value: string, place: ValuePlace): Extract<ValuePart, { reference: string }>[] =>
  parseValue(value, place).filter((part): part is Extract<ValuePart, { reference: string }> => 'reference' in part);

/** A target's key, for maps and sets: its project, environment and name, none of which holds `/`. */
export const targetKey = (target: ReferenceTarget): string =>
  `${target.projectId}/${target.environment}/${target.name}`;

/** A place's key: its project and environment. */
export const placeKey = (place: ValuePlace): string => `${place.projectId}/${place.environment}`;

/** The place a `placeKey` names. */
export const placeOf = (key: string): ValuePlace => {
  const at = key.indexOf('/');
  return { projectId: key.slice(0, at), environment: key.slice(at + 1) };
};

/** The other places (`placeKey`) a value read at `place` references, each once. */
export const placesReferenced = (value: string, place: ValuePlace): string[] => {
  const own = placeKey(place);
  return [...new Set(referencesIn(value, place).map((part) => placeKey(part.target)))].filter((key) => key !== own);
};

/** How deep references may nest: a reference in a referenced value resolves too, up to this many levels. */
export const MAX_REFERENCE_DEPTH = 5;

/**
 * Why a reference cannot be resolved: its secret is missing or not readable by the caller (one reason,
 * so that an answer never tells which), it leads back to itself, it nests deeper than
 * `MAX_REFERENCE_DEPTH`, or what it resolves to is longer than a value may be.
 */
export type ReferenceProblem = 'unreadable' | 'cycle' | 'depth' | 'size';

/** A reference of a value, as written there, that cannot be resolved, and why. */
export interface ReferenceFailure {
  readonly reference: string;
  readonly problem: ReferenceProblem;
}

/** A value resolved, or the first of its references that cannot be. */
export type Resolution = { readonly value: string } | { readonly failure: ReferenceFailure };

/** What a reference's resolution found: the value it resolves to and how deep its own references nest. */
type Resolved = { readonly value: string; readonly height: number } | { readonly problem: ReferenceProblem };

/**
 * Resolves values against the referenced secrets read: `stored` holds, by `targetKey`, each target's
 * stored value, or `undefined` when it is missing or the caller may not read it; a target it does not
 * hold was not read because it lies deeper than `MAX_REFERENCE_DEPTH`. Each target is resolved once
 * (a value referenced many times costs one resolution), and a resolved value longer than `maxBytes`
 * (UTF-8) fails, so that references repeated at each level cannot multiply a value without bound.
 */
export const referenceResolver = (stored: ReadonlyMap<string, string | undefined>, maxBytes: number) => {
  const done = new Map<string, Resolved>();
  const open = new Set<string>();

  /** A value's parts joined, each reference resolved; `height`: how deep its references nest (0: none). */
  const expand = (
    value: string,
    place: ValuePlace,
  ): { readonly value: string; readonly height: number } | { readonly failed: ReferenceFailure } => {
    let text = '';
    let bytes = 0;
    let height = 0;
    for (const part of parseValue(value, place)) {
      if ('text' in part) {
        // Literal text is never longer than the stored value it is part of: only a reference's value overflows.
        bytes += Buffer.byteLength(part.text);
        text += part.text;
        continue;
      }
      const { reference } = part;
      const found = resolveTarget(part.target);
      if ('problem' in found) return { failed: { reference, problem: found.problem } };
      if (found.height + 1 > MAX_REFERENCE_DEPTH) return { failed: { reference, problem: 'depth' } };
      height = Math.max(height, found.height + 1);
      bytes += Buffer.byteLength(found.value);
      if (bytes > maxBytes) return { failed: { reference, problem: 'size' } };
      text += found.value;
    }
    return { value: text, height };
  };

  const resolveTarget = (target: ReferenceTarget): Resolved => {
    const key = targetKey(target);
    const known = done.get(key);
    if (known !== undefined) return known;
    if (open.has(key)) return { problem: 'cycle' };
    if (!stored.has(key)) return { problem: 'depth' };
    const value = stored.get(key);
    if (value === undefined) return { problem: 'unreadable' };
    open.add(key);
    const expanded = expand(value, target);
    open.delete(key);
    const resolved: Resolved = 'failed' in expanded ? { problem: expanded.failed.problem } : expanded;
    done.set(key, resolved);
    return resolved;
  };

  /**
   * Resolves `value`, read at `place`; `self`: the secret it is the current value of, if it is one, so
   * that a reference back to it is a cycle.
   */
  const resolve = (value: string, place: ValuePlace, self?: string): Resolution => {
    const key = self === undefined ? undefined : targetKey(Object.assign({ name: self }, place));
    if (key !== undefined) open.add(key);
    const expanded = expand(value, place);
    if (key !== undefined) open.delete(key);
    return 'failed' in expanded ? { failure: expanded.failed } : { value: expanded.value };
  };

  return { resolve };
};

/** What a problem of a reference is said as, after the reference: never a value, nor whether a secret exists. */
export const PROBLEM_TEXT: Readonly<Record<ReferenceProblem, string>> = {
  unreadable: 'names no secret this caller can read',
  cycle: 'leads back to a secret it is part of',
  depth: `nests more than ${MAX_REFERENCE_DEPTH} references deep`,
  size: 'resolves to a value longer than a value may be',
};
