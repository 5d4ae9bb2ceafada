import { describe, expect, it } from 'vitest';
import { looksLikeCredential } from './credential-shape.js';
import { isSecretEnvName } from './secret-names.js';

describe('looksLikeCredential (issue 26.4)', () => {
  it.each<[string, string, boolean]>([
    ['an OpenAI key', 'sk-proj-4f9Qx2LmT7zR8vWk1pYd', true],
    ['an Anthropic key', 'sk-ant-api03-Zx81kLq0pW2mN5', true],
    ['a GitHub token', 'ghp_16C7e42F292c6912E7710c838347Ae178B4a', true],
    ['a fine-grained GitHub PAT', 'github_pat_11ABCDEFG0123456789_abcdefXYZ', true],
    ['a Slack bot token', 'xoxb-1234-5678-abcdefGHIJ', true],
    ['a GitLab token', 'glpat-x1Y2z3A4b5C6d7E8f9G0', true],
    ['an AWS access key id', 'AKIAIOSFODNN7EXAMPLE', true],
    ['a JWT', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U', true],
    ['a hex API key', '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b', true],
    ['a random base64 secret', 'q8Zt3Lw+P0mX7vB2kR9sY4nE1cH6', true],
    ['a path', '/etc/app.conf', false],
    ['a word', 'production', false],
    ['a short path', '/tmp', false],
    ['a port', '8080', false],
    ['a long number', '1234567890123456789012', false],
    ['a dashed name', 'my-service-v2-production-eu-west-1', false],
    ['a URL', 'https://api.example.com/v1/x9Y8z7W6v5U4t3S2r1Q0', false],
    ['a home path', '~/.config/app/settings.json', false],
    ['a Windows path', 'C:\\Users\\me\\AppData\\Roaming\\app1234567890', false],
    ['a prefix that is a word', 'sk-learn', false],
    ['a long word', 'supercalifragilisticexpialidocious', false],
    ['a version', '20.11.1', false],
    ['prose', 'use the staging cluster', false],
    ['empty', '', false],
  ])('%s', (_name, value, expected) => {
    expect(looksLikeCredential(value)).toBe(expected);
  });
});

describe('isSecretEnvName (issue 26.4)', () => {
  it.each<[string, boolean]>([
    ['GITHUB_TOKEN', true],
    ['GITHUB_PERSONAL_ACCESS_TOKEN', true],
    ['OPENAI_API_KEY', true],
    ['AWS_SECRET_ACCESS_KEY', true],
    ['DB_PASSWORD', true],
    ['DB_PASS', true],
    ['BASIC_AUTH', true],
    ['GITLAB_PAT', true],
    ['GOOGLE_APPLICATION_CREDENTIALS', true],
    ['apiKey', true],
    ['SENTRY_DSN', true],
    ['PATH', false],
    ['CONFIG', false],
    ['MODE', false],
    ['TMPDIR', false],
    ['PORT', false],
    ['AUTHOR', false],
    ['SSH_KEY_PATH', false],
    ['MEMORY_FILE_PATH', false],
    ['KEYCLOAK_URL', false],
  ])('%s', (name, expected) => {
    expect(isSecretEnvName(name)).toBe(expected);
  });
});
