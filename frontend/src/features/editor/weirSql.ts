/**
 * The `weir-sql` language for Monaco: a Monarch tokenizer with standard SQL
 * keywords and the dialect's streaming words (spec/), which get their own
 * token class so they stand out, plus a theme that colours them.
 *
 * Only data lives here (and type-only imports), so it can be tested without a
 * browser; registration happens in monacoSetup.ts.
 */
import type { editor, languages } from 'monaco-editor/editor';

export const LANGUAGE_ID = 'weir-sql';
export const THEME_ID = 'weir-dark';

/** The streaming dialect: Feldera, Calcite, SQLstream and Flink extensions. */
export const DIALECT_KEYWORDS: readonly string[] = [
  'STREAM', 'FOREIGN', 'PUMP', 'ROWTIME', 'LATENESS', 'WATERMARK', 'EMIT_FINAL', 'APPEND_ONLY',
  'TUMBLE', 'TUMBLE_START', 'TUMBLE_END', 'HOP', 'HOP_START', 'HOP_END', 'SESSION', 'SESSION_START',
  'SESSION_END', 'CUMULATE', 'DESCRIPTOR',
  'SNAPSHOT', 'SEARCH_KEY', 'TO_CHANGELOG', 'FROM_CHANGELOG', 'LATERAL', 'WINDOW', 'EMIT',
  'PROCTIME', 'START', 'PAUSE', 'RESUME', 'STOP', 'STARTED', 'STOPPED', 'SERVER', 'OPTIONS', 'SYSTEM_TIME',
  'PUNCTUATION', 'LOCAL', 'INDEX', 'INTERNED',
];

export const KEYWORDS: readonly string[] = [
  'ADD', 'ALL', 'ALTER', 'AND', 'ANY', 'APPLY', 'AS', 'ASC', 'ASOF', 'BETWEEN', 'BY', 'CASCADE', 'CASE', 'CAST',
  'CHECK', 'COLUMN', 'CONSTRAINT', 'CREATE', 'CROSS', 'CURRENT', 'CURRENT_DATE', 'CURRENT_TIME',
  'SAFE_CAST', 'TRY_CAST',
  'CURRENT_TIMESTAMP', 'DAY', 'DAYS', 'DEFAULT', 'DELETE', 'DESC', 'DISTINCT', 'DROP', 'ELSE', 'END',
  'ESCAPE', 'EXCEPT', 'EXISTS', 'FALSE', 'FETCH', 'FIRST', 'FOLLOWING', 'FOR', 'FROM',
  'FULL', 'FUNCTION', 'GROUP', 'HAVING', 'HOUR', 'HOURS', 'IF', 'IN', 'INNER', 'INSERT', 'INTERSECT',
  'INTERVAL', 'INTO', 'IS', 'JOIN', 'KEY', 'LAST', 'LEFT', 'ILIKE', 'LIKE', 'LIMIT', 'SIMILAR', 'MATCH_CONDITION',
  'MATERIALIZED', 'MINUTE',
  'MINUTES', 'MONTH', 'NATURAL', 'NOT', 'NULL', 'NULLS', 'OF', 'OFFSET', 'ON', 'OR', 'ORDER', 'OUTER',
  'OVER', 'PARTITION', 'PIVOT', 'UNPIVOT', 'PRECEDING', 'PRIMARY', 'QUALIFY', 'RANGE', 'RECURSIVE', 'REFERENCES',
  'REPLACE', 'RETURNS', 'RIGHT',
  'ROW', 'ROWS', 'SECOND', 'SECONDS', 'SELECT', 'SET', 'SOME', 'TABLE', 'THEN', 'TO', 'TRUE', 'TYPE',
  'UNBOUNDED', 'UNION', 'UNIQUE', 'UNKNOWN', 'UPDATE', 'USING', 'VALUES', 'VIEW', 'WHEN', 'WHERE',
  'WITH', 'WITHIN', 'YEAR', 'LEADING', 'TRAILING', 'BOTH', 'PLACING', 'SYMMETRIC', 'ASYMMETRIC',
  'ORDINALITY', 'EXCLUDE',
];

export const TYPE_KEYWORDS: readonly string[] = [
  'BIGINT', 'BINARY', 'BOOLEAN', 'BYTEA', 'CHAR', 'DATE', 'DECIMAL', 'DOUBLE', 'FLOAT', 'FLOAT4',
  'FLOAT8', 'INT', 'INT2', 'INT4', 'INT8', 'INTEGER',
  'NUMERIC', 'PRECISION', 'REAL', 'SMALLINT', 'STRING', 'TIME', 'TIMESTAMP', 'TINYINT', 'UUID',
  'VARBINARY', 'VARCHAR', 'ZONE',
];

export const BUILTIN_FUNCTIONS: readonly string[] = [
  'ABS', 'ACOS', 'ACOSH', 'ANY_VALUE', 'ARG_MAX', 'ARG_MIN', 'ARRAY', 'ARRAYS_OVERLAP',
  'ARRAY_EXISTS', 'ARRAY_AGG', 'ARRAY_APPEND', 'ARRAY_COMPACT', 'ARRAY_CONCAT', 'ARRAY_CONTAINS',
  'ARRAY_DISTINCT',
  'ARRAY_EXCEPT', 'ARRAY_INSERT', 'ARRAY_INTERSECT', 'ARRAY_JOIN', 'ARRAY_LENGTH', 'ARRAY_MAX',
  'ARRAY_MIN', 'ARRAY_POSITION', 'ARRAY_PREPEND', 'ARRAY_REMOVE', 'ARRAY_REPEAT', 'ARRAY_REVERSE',
  'ARRAY_SIZE',
  'ARRAY_TO_STRING', 'ARRAY_UNION', 'ASCII', 'ASIN', 'ASINH', 'ATAN', 'ATAN2', 'ATANH', 'AVG',
  'BIN2UTF8', 'BIT_AND', 'BIT_OR', 'BIT_XOR', 'BOOL_AND', 'BOOL_OR', 'BROUND', 'CARDINALITY',
  'CBRT', 'CEIL',
  'CEILING', 'CHARACTER_LENGTH', 'CHAR_LENGTH', 'CHR', 'COALESCE', 'CONCAT', 'CONCAT_WS', 'CONVERT', 'COS',
  'COSH', 'COT', 'COTH', 'COUNT', 'COUNTIF', 'COVAR_POP', 'COVAR_SAMP', 'CSC', 'CSCH', 'CUME_DIST',
  'DATEADD', 'DATEDIFF', 'DATE_ADD', 'DATE_PART', 'DATE_SUB', 'DATE_TRUNC', 'DAYNAME', 'DAYOFMONTH',
  'DAYOFWEEK', 'DAYOFYEAR', 'DEGREES', 'DENSE_RANK', 'ELEMENT', 'EVERY', 'EXP', 'EXTRACT',
  'FIRST_VALUE', 'FLOOR', 'FORMAT_DATE', 'FORMAT_TIMESTAMP', 'GREATEST', 'GREATEST_IGNORE_NULLS',
  'GROUPING', 'GROUPING_ID', 'GROUP_ID', 'IFNULL', 'INITCAP', 'INITCAP_SPACES', 'IS_INF', 'IS_NAN',
  'ITEM', 'LAG', 'LAST_DAY', 'LAST_VALUE', 'LEAD', 'LEAST', 'LEAST_IGNORE_NULLS', 'LEN', 'LENGTH',
  'LISTAGG', 'LN', 'LOG', 'LOG10', 'LOGICAL_AND', 'LOGICAL_OR', 'LOWER', 'LPAD', 'LTRIM', 'MAP',
  'MAP_CONCAT', 'MAP_CONTAINS_KEY', 'MAP_KEYS', 'MAP_VALUES', 'MAX', 'MD5', 'MIN', 'MOD', 'MODE',
  'MONTHNAME', 'NOW', 'NTH_VALUE', 'NTILE', 'NULLIF', 'NVL', 'OCTET_LENGTH',
  'OVERLAY', 'PARSE_DATE', 'PARSE_TIME', 'PARSE_TIMESTAMP', 'PERCENTILE_CONT', 'PERCENTILE_DISC',
  'PERCENT_RANK', 'PI', 'POSITION', 'POWER', 'QUARTER', 'RADIANS', 'RANK', 'REGEXP_EXTRACT',
  'REGEXP_REPLACE', 'REGR_COUNT', 'REGR_SXX', 'REGR_SYY', 'REPEAT', 'REVERSE', 'RLIKE', 'ROUND',
  'ROW_NUMBER', 'RPAD', 'RTRIM', 'SAFE_OFFSET', 'SEC', 'SECH', 'SEQUENCE', 'SHA1', 'SHA256',
  'SHA512', 'SIGN', 'SIN', 'SINH', 'SORT_ARRAY',
  'SPLIT', 'SPLIT_INDEX', 'SPLIT_PART', 'SQRT', 'STDDEV', 'STDDEV_POP', 'STDDEV_SAMP',
  'STRING_AGG', 'SUBSTR', 'SUBSTRING', 'SUM', 'TAN', 'TANH', 'TIMESTAMPADD', 'TIMESTAMPDIFF',
  'TIMESTAMP_TRUNC', 'TIME_TRUNC', 'TO_HEX', 'TO_INT', 'TRANSFORM', 'TRIM', 'TRUNC', 'TRUNCATE',
  'UNNEST', 'UPPER',
  'VARIANCE',
  'VAR_POP', 'VAR_SAMP', 'WEEK',
];

export const languageConfiguration: languages.LanguageConfiguration = {
  comments: { lineComment: '--', blockComment: ['/*', '*/'] },
  brackets: [['(', ')']],
  autoClosingPairs: [
    { open: '(', close: ')' },
    { open: "'", close: "'", notIn: ['string', 'comment'] },
    { open: '"', close: '"', notIn: ['string', 'comment'] },
  ],
  surroundingPairs: [
    { open: '(', close: ')' },
    { open: "'", close: "'" },
    { open: '"', close: '"' },
  ],
};

export const monarchLanguage: languages.IMonarchLanguage = {
  ignoreCase: true,
  defaultToken: '',
  tokenPostfix: '.sql',
  brackets: [{ open: '(', close: ')', token: 'delimiter.parenthesis' }],
  dialectKeywords: DIALECT_KEYWORDS,
  keywords: KEYWORDS,
  typeKeywords: TYPE_KEYWORDS,
  builtinFunctions: BUILTIN_FUNCTIONS,
  tokenizer: {
    root: [
      { include: '@comments' },
      [/\s+/, 'white'],
      // x'0A1B' (bytes) and E'a\tb' (an escape string): a string with a letter before it
      [/[xXeE](?=')/, 'string'],
      [
        /[a-zA-Z_][\w$]*/,
        {
          cases: {
            '@dialectKeywords': 'keyword.stream',
            '@keywords': 'keyword',
            '@typeKeywords': 'type',
            '@builtinFunctions': 'predefined',
            '@default': 'identifier',
          },
        },
      ],
      [/"/, { token: 'identifier.quote', next: '@quotedIdentifier' }],
      [/'/, { token: 'string', next: '@string' }],
      [/\d*\.\d+(?:[eE][-+]?\d+)?/, 'number.float'],
      [/\d+(?:[eE][-+]?\d+)?/, 'number'],
      [/[;,.]/, 'delimiter'],
      [/[()]/, '@brackets'],
      [/[<>=!%&+\-*/|~^]+/, 'operator'],
    ],
    comments: [
      [/--.*$/, 'comment'],
      [/\/\*/, { token: 'comment.quote', next: '@blockComment' }],
    ],
    blockComment: [
      [/[^*/]+/, 'comment'],
      [/\*\//, { token: 'comment.quote', next: '@pop' }],
      [/[*/]/, 'comment'],
    ],
    string: [
      [/[^']+/, 'string'],
      [/''/, 'string.escape'],
      [/'/, { token: 'string', next: '@pop' }],
    ],
    quotedIdentifier: [
      [/[^"]+/, 'identifier'],
      [/""/, 'identifier'],
      [/"/, { token: 'identifier.quote', next: '@pop' }],
    ],
  },
};

export const theme: editor.IStandaloneThemeData = {
  base: 'vs-dark',
  inherit: true,
  rules: [
    { token: 'keyword', foreground: '7aa2f7' },
    { token: 'keyword.stream', foreground: 'e0af68', fontStyle: 'bold' },
    { token: 'type', foreground: '4ec9b0' },
    { token: 'predefined', foreground: 'dcdcaa' },
    { token: 'string', foreground: 'ce9178' },
    { token: 'number', foreground: 'b5cea8' },
    { token: 'comment', foreground: '6a9955', fontStyle: 'italic' },
    { token: 'operator', foreground: 'c0caf5' },
  ],
  colors: {
    'editor.background': '#16181d',
  },
};
