/**
 * The lint rule of eslint.config.js that keeps every error answer on errorBody (packages/http):
 * a body with `message` written by hand into reply.send is refused in services and packages, and
 * a send of errorBody(...) or of an answer without `message` passes.
 */
import { ESLint } from 'eslint';
import { describe, expect, test } from 'vitest';
import { repoRoot } from '@sinilill/config';

const eslint = new ESLint({ cwd: repoRoot });
const CODE = [
  "import type { FastifyReply } from 'fastify';",
  "import { errorBody } from '@sinilill/http';",
  "export const byHand = (reply: FastifyReply) => reply.code(404).send({ message: 'NOT_FOUND' });",
  "export const helper = (reply: FastifyReply) => reply.code(404).send(errorBody('NOT_FOUND'));",
  'export const answer = (reply: FastifyReply) => reply.send({ total: 1 });',
].join('\n');

/** The lines on which the rule fired for CODE linted as if it were `path`. */
async function firedAt(path: string): Promise<number[]> {
  const [result] = await eslint.lintText(CODE, { filePath: path });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-syntax' && /errorBody/.test(m.message)).map((m) => m.line);
}

describe('error answers go through errorBody', () => {
  test('a body with `message` written by hand is refused in a service and in a package; the helper and other answers pass', async () => {
    for (const path of ['services/command-api/src/probe.ts', 'packages/payments/src/probe.ts']) {
      expect(await firedAt(path), path).toEqual([3]);
    }
  });
});
