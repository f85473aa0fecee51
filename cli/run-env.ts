/**
 * Variables that a program reads as code to load or run, or as where to find it, rather than as data:
 * a secret by one of these names would let whoever can write the environment's secrets run code as the
 * person who runs `secrets run`. Compared in upper case, as Windows does.
 */
const LOADING_NAMES: ReadonlySet<string> = new Set([
  // Shells
  'PATH',
  'BASH_ENV',
  'ENV',
  'PS0',
  'PS1',
  'PS2',
  'PS4',
  'PROMPT_COMMAND',
  'SHELL',
  'SHELLOPTS',
  'BASHOPTS',
  'IFS',
  'CDPATH',
  'GLOBIGNORE',
  'ZDOTDIR',
  // The C library
  'GCONV_PATH',
  // Node.js
  'NODE_OPTIONS',
  'NODE_PATH',
  // Python
  'PYTHONSTARTUP',
  'PYTHONPATH',
  'PYTHONHOME',
  'PYTHONUSERBASE',
  'PYTHONBREAKPOINT',
  'PYTHONWARNINGS',
  // Perl and Ruby
  'PERL5OPT',
  'PERL5LIB',
  'PERLLIB',
  'PERL5DB',
  'RUBYOPT',
  'RUBYLIB',
  // Java
  'JAVA_TOOL_OPTIONS',
  '_JAVA_OPTIONS',
  'JDK_JAVA_OPTIONS',
  'CLASSPATH',
  // Git, ssh and the programs they start
  'GIT_SSH_COMMAND',
  'GIT_SSH',
  'GIT_EXEC_PATH',
  'GIT_ASKPASS',
  'GIT_PAGER',
  'GIT_EDITOR',
  'GIT_EXTERNAL_DIFF',
  'GIT_PROXY_COMMAND',
  'GIT_TEMPLATE_DIR',
  'GIT_DIR',
  'GIT_WORK_TREE',
  'SSH_ASKPASS',
  'EDITOR',
  'VISUAL',
  'PAGER',
  'LESSOPEN',
  'LESSCLOSE',
  'BROWSER',
  // Others that load code
  'OPENSSL_CONF',
  'LUA_INIT',
  'LUA_PATH',
  'LUA_CPATH',
  'PHPRC',
  'PHP_INI_SCAN_DIR',
  // Go
  'GOFLAGS',
]);

/**
 * Families of such names: the dynamic loaders' (`LD_PRELOAD`, `DYLD_INSERT_LIBRARIES`), Git's
 * configuration by variable, and npm's (`npm_config_node_options` becomes its scripts' NODE_OPTIONS).
 */
const LOADING_PREFIXES = ['LD_', 'DYLD_', 'GIT_CONFIG_', 'NPM_CONFIG_'] as const;

/** Whether a variable of this name changes how programs load or what they run. */
export const changesLoading = (name: string): boolean => {
  const upper = name.toUpperCase();
  return LOADING_NAMES.has(upper) || LOADING_PREFIXES.some((prefix) => upper.startsWith(prefix));
};

/**
 * The secrets `run` injects: all but those whose names change how programs load, unless `allowed`
 * names them (`--allow-name`); answers the skipped names too, sorted, to be reported (never their values).
 */
export const injectableSecrets = (
  values: Readonly<Record<string, string>>,
  allowed: ReadonlySet<string>,
): { inject: Record<string, string>; skipped: string[] } => {
  const skipped = Object.keys(values)
    .filter((name) => changesLoading(name) && !allowed.has(name))
    .sort();
  const inject = Object.fromEntries(Object.entries(values).filter(([name]) => !skipped.includes(name)));
  return { inject, skipped };
};
