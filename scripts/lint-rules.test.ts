import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// docs/ARCHITECTURE.md, rules of the code: imports flow one way (shared <- server, shared <- app), and
// modules (features) never import each other; lint must enforce both. Each rule was seen to fail
// here with its block removed from eslint.config.js.
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

describe('modules and features apart', () => {
  it('stops a service module importing another module', async () => {
    const code = "import { presentLink } from '../links/links.service';\nexport { presentLink };\n";
    expect(await restrictedImports('src/server/modules/templates/templates.service.ts', code)).toHaveLength(1);
    const deep = "import { x } from '../../modules/links/links.service';\nexport { x };\n";
    expect(await restrictedImports('src/server/engine/x.ts', deep)).toEqual([]);
    expect(await restrictedImports('src/server/modules/templates/templates.service.ts', deep)).toHaveLength(1);
  });

  it("lets a module name another module's types, and import its own files and shared layers", async () => {
    const code = [
      "import type { LinksRepository } from '../links/links.repository';",
      "import { TEMPLATE_LOCKED } from '../../lib/errors';",
      "import { createTemplatesRepository } from './templates.repository';",
      'export type { LinksRepository };',
      'export { TEMPLATE_LOCKED, createTemplatesRepository };',
      '',
    ].join('\n');
    expect(await restrictedImports('src/server/modules/templates/templates.service.ts', code)).toEqual([]);
  });

  it('stops a dashboard feature importing another feature, types included', async () => {
    const value = "import { campaignQueries } from '../campaigns/campaign-queries';\nexport { campaignQueries };\n";
    expect(await restrictedImports('src/app/features/templates/template-form.tsx', value)).toHaveLength(1);
    const type = "import type { CampaignFormValues } from '../campaigns/campaign-form-values';\nexport type { CampaignFormValues };\n";
    expect(await restrictedImports('src/app/features/templates/template-form.tsx', type)).toHaveLength(1);
    const own = "import { paths } from '../../paths';\nimport { x } from './template-queries';\nexport { paths, x };\n";
    expect(await restrictedImports('src/app/features/templates/template-form.tsx', own)).toEqual([]);
  });
});

describe('one formatter in the dashboard', () => {
  // Seen to fail with the block removed from eslint.config.js.
  const restrictedSyntax = async (filePath: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath });
    return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-syntax');
  };

  it('stops the dashboard formatting with Intl or toLocaleString outside lib/format.ts', async () => {
    const code = "export const a = (n: number) => n.toLocaleString('en-GB');\nexport const b = new Intl.NumberFormat('en-GB');\n";
    expect(await restrictedSyntax('src/app/features/x/y.ts', code)).toHaveLength(2);
    expect(await restrictedSyntax('src/app/lib/format.ts', code)).toEqual([]);
    expect(await restrictedSyntax('src/server/x.ts', code)).toEqual([]);
  });
});
