// ESLint (flat config): the recommended rules; the demo and its client run in the browser, the tests in Node.
import js from '@eslint/js';
import globals from 'globals';

export default [
  { ignores: ['node_modules/', 'vendor/', 'screenshots/'] },
  js.configs.recommended,
  {
    files: ['**/*.js'],
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: globals.browser },
  },
  {
    files: ['test/**/*.js', 'e2e/**/*.js', 'eslint.config.js'],
    languageOptions: { globals: globals.node },
  },
];
