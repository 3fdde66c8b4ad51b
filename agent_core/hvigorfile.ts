import * as fs from 'fs';
import * as path from 'path';
import { HvigorNode, HvigorPlugin } from '@ohos/hvigor';
import { harTasks } from '@ohos/hvigor-ohos-plugin';

// The core is written once in shared-ts/src/core; the HAR ships a copy as .ets. A hvigor task that
// runs before the HAR's PreBuild copies it, so a DevEco build never compiles a stale copy, while
// an IDE sync (which only evaluates this file and applies plugins) changes no file. Same output as
// `npm run sync:har` (scripts/check-har-sync.mjs verifies both agree). Node fs only: no deps.
const HEADER = '// Generated from shared-ts/src/core by `npm run sync:har`. Edit the .ts source, not this file.\n';

function listFiles(dir: string, ext: string): string[] {
  const out: string[] = [];
  if (!fs.existsSync(dir)) {
    return out;
  }
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      out.push(...listFiles(p, ext));
    } else if (entry.name.endsWith(ext)) {
      out.push(p);
    }
  }
  return out.sort();
}

/** Copies `<repo>/shared-ts/src/core` into `<moduleDir>/src/main/ets/core`; returns the file count, -1 without sources. */
export function syncCoreIntoHar(moduleDir: string): number {
  const source = path.resolve(moduleDir, '..', 'shared-ts', 'src', 'core');
  const target = path.join(moduleDir, 'src', 'main', 'ets', 'core');
  if (!fs.existsSync(source)) {
    return -1; // The HAR is built outside this repository: keep the shipped copy.
  }
  const rendered = new Map<string, string>();
  for (const file of listFiles(source, '.ts')) {
    if (!file.endsWith('.d.ts')) {
      rendered.set(path.relative(source, file).replace(/\.ts$/, '.ets'), HEADER + fs.readFileSync(file, 'utf8'));
    }
  }
  for (const old of listFiles(target, '.ets')) {
    if (!rendered.has(path.relative(target, old))) {
      fs.rmSync(old);
    }
  }
  rendered.forEach((text: string, rel: string) => {
    const dest = path.join(target, rel);
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    if (!fs.existsSync(dest) || fs.readFileSync(dest, 'utf8') !== text) {
      fs.writeFileSync(dest, text);
    }
  });
  return rendered.size;
}

/** Registers `syncArkAgentCore`, run before PreBuild of the default target (`hvigorw syncArkAgentCore` alone works too). */
export function syncCorePlugin(moduleDir: string): HvigorPlugin {
  return {
    pluginId: 'arkagentSyncCore',
    apply(node: HvigorNode): void {
      node.registerTask({
        name: 'syncArkAgentCore',
        run(): void {
          const files = syncCoreIntoHar(moduleDir);
          console.log(files < 0 ? 'ArkAgent core: no sources beside the HAR, keeping the shipped copy' :
            `ArkAgent core: ${files} files in sync`);
        },
        postDependencies: ['default@PreBuild']
      });
    }
  };
}

export default {
  system: harTasks, /* Built-in plugin of Hvigor. It cannot be modified. */
  plugins: [syncCorePlugin(__dirname)]
};
