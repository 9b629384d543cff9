import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// docs/architecture.md: imports flow one way (shared <- server, shared <- app); lint must enforce it.
const eslint = new ESLint();

async function restrictedImports(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('import direction', () => {
  it('stops the dashboard importing the service', async () => {
    expect(await restrictedImports('src/app/features/x.ts', "import { buildApp } from '../../server/app';\nexport { buildApp };\n")).toHaveLength(1);
  });

  it('stops the service importing the dashboard', async () => {
    expect(await restrictedImports('src/server/modules/x.ts', "import { paths } from '../../app/paths';\nexport { paths };\n")).toHaveLength(1);
  });

  it('stops shared code importing either side', async () => {
    const code = "import { a } from '../server/app';\nimport { b } from '../app/paths';\nexport { a, b };\n";
    expect(await restrictedImports('src/shared/x.ts', code)).toHaveLength(2);
  });

  it('lets both sides import shared code, and the service its own app.ts', async () => {
    expect(await restrictedImports('src/app/features/x.ts', "import { SenderSchema } from '../../shared/contract';\nexport { SenderSchema };\n")).toEqual([]);
    expect(await restrictedImports('src/server/main.ts', "import { buildApp } from './app';\nexport { buildApp };\n")).toEqual([]);
  });
});
