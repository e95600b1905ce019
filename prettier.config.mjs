// Prettier, set to the code as it is written, so that the one-time `npm run format` changes as
// little as possible. Measured on the tree (TypeScript, JS, JSON and YAML), files changed and
// existing lines rewritten: printWidth 140: 153 files, 1,063 lines; 160: 117 files, 723 lines;
// 180: 121 files, 851 lines (a wider limit rejoins more hand-wrapped lines). Markdown is not
// formatted (.prettierignore).
/** @type {import('prettier').Config} */
export default {
  printWidth: 160,
  singleQuote: true,
  semi: true,
  trailingComma: 'all',
  arrowParens: 'always',
  overrides: [
    // YAML (docker-compose.yml) is written with double quotes, as YAML usually is.
    { files: ['*.yml', '*.yaml'], options: { singleQuote: false } },
  ],
};
