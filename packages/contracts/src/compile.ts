import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Compiles the Solidity sources in `contracts/` with solc-js (the npm `solc` build) and caches
 * the ABI and bytecode in `artifacts/contracts.json` (committed: a clean clone compiles nothing
 * while it is current; scripts/build-cache.mjs). The cache is keyed by the sources, the solc and
 * OpenZeppelin versions and the compiler settings, so it is rebuilt whenever any of them changes.
 */

const require = createRequire(import.meta.url);
const PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SOURCES_DIR = path.join(PACKAGE_DIR, 'contracts');
export const ARTIFACTS_FILE = path.join(PACKAGE_DIR, 'artifacts', 'contracts.json');

export const COMPILER_SETTINGS = {
  evmVersion: 'cancun',
  optimizer: { enabled: true, runs: 200 },
  metadata: { bytecodeHash: 'ipfs' },
} as const;

export type AbiParameter = {
  name: string;
  type: string;
  internalType?: string;
  indexed?: boolean;
  components?: readonly AbiParameter[];
};
export type AbiItem = {
  type: 'function' | 'constructor' | 'event' | 'error' | 'fallback' | 'receive';
  name?: string;
  inputs?: readonly AbiParameter[];
  outputs?: readonly AbiParameter[];
  stateMutability?: 'pure' | 'view' | 'nonpayable' | 'payable';
  anonymous?: boolean;
};

export type CompiledContract = {
  contractName: string;
  sourceName: string;
  abi: AbiItem[];
  /** Creation bytecode (0x…); append the ABI-encoded constructor arguments to deploy. */
  bytecode: `0x${string}`;
  /** Runtime bytecode as compiled, immutables zeroed. */
  deployedBytecode: `0x${string}`;
  /** Byte ranges of the runtime code that hold immutables (set per deployment). */
  immutableRanges: { start: number; length: number }[];
};

export type ArtifactsFile = {
  key: string;
  solcVersion: string;
  openzeppelinVersion: string;
  settings: typeof COMPILER_SETTINGS;
  contracts: Record<string, CompiledContract>;
};

function packageVersion(name: string): string {
  return (JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')) as { version: string }).version;
}

function readSources(): Record<string, string> {
  const sources: Record<string, string> = {};
  for (const file of readdirSync(SOURCES_DIR).sort()) {
    if (file.endsWith('.sol')) sources[file] = readFileSync(path.join(SOURCES_DIR, file), 'utf8');
  }
  return sources;
}

function cacheKey(sources: Record<string, string>): string {
  const hash = createHash('sha256');
  hash.update(`solc@${packageVersion('solc')}\n`);
  hash.update(`@openzeppelin/contracts@${packageVersion('@openzeppelin/contracts')}\n`);
  hash.update(JSON.stringify(COMPILER_SETTINGS));
  for (const [file, text] of Object.entries(sources)) hash.update(`\n${file}\n`).update(text);
  return hash.digest('hex');
}

type SolcOutput = {
  errors?: { severity: 'error' | 'warning' | 'info'; formattedMessage: string }[];
  contracts?: Record<
    string,
    Record<
      string,
      {
        abi: AbiItem[];
        evm: {
          bytecode: { object: string };
          deployedBytecode: {
            object: string;
            immutableReferences?: Record<string, { start: number; length: number }[]>;
          };
        };
      }
    >
  >;
};

/** Runs solc over the sources; throws with the compiler's messages on any error. */
export function compileSources(sources: Record<string, string> = readSources()): ArtifactsFile {
  // Loading solc (a large wasm build) takes a moment; only done when the cache is stale.
  const solc = require('solc') as { compile: (input: string, opts: object) => string; version: () => string };
  const input = {
    language: 'Solidity',
    sources: Object.fromEntries(Object.entries(sources).map(([file, content]) => [file, { content }])),
    settings: {
      ...COMPILER_SETTINGS,
      outputSelection: {
        '*': {
          '*': [
            'abi',
            'evm.bytecode.object',
            'evm.deployedBytecode.object',
            'evm.deployedBytecode.immutableReferences',
          ],
        },
      },
    },
  };
  const findImports = (importPath: string) => {
    try {
      return { contents: readFileSync(require.resolve(importPath), 'utf8') };
    } catch {
      return { error: `File not found: ${importPath}` };
    }
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports })) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length)
    throw new Error(`Solidity compilation failed:\n${errors.map((e) => e.formattedMessage).join('\n')}`);
  const contracts: Record<string, CompiledContract> = {};
  for (const sourceName of Object.keys(sources)) {
    for (const [contractName, out] of Object.entries(output.contracts?.[sourceName] ?? {})) {
      if (!out.evm.bytecode.object) continue; // interfaces and abstract contracts
      contracts[contractName] = {
        contractName,
        sourceName,
        abi: out.abi,
        bytecode: `0x${out.evm.bytecode.object}`,
        deployedBytecode: `0x${out.evm.deployedBytecode.object}`,
        immutableRanges: Object.values(out.evm.deployedBytecode.immutableReferences ?? {})
          .flat()
          .sort((a, b) => a.start - b.start),
      };
    }
  }
  return {
    key: cacheKey(sources),
    solcVersion: solc.version(),
    openzeppelinVersion: packageVersion('@openzeppelin/contracts'),
    settings: COMPILER_SETTINGS,
    contracts,
  };
}

let loaded: ArtifactsFile | undefined;

/** The compiled contracts: from the cache when it matches the sources, else compiled now and cached. */
export function loadArtifactsFile(options: { force?: boolean } = {}): ArtifactsFile {
  const sources = readSources();
  const key = cacheKey(sources);
  if (!options.force && loaded?.key === key) return loaded;
  if (!options.force && existsSync(ARTIFACTS_FILE)) {
    try {
      const cached = JSON.parse(readFileSync(ARTIFACTS_FILE, 'utf8')) as ArtifactsFile;
      if (cached.key === key) return (loaded = cached);
    } catch {
      // A damaged cache is rebuilt below.
    }
  }
  const compiled = compileSources(sources);
  mkdirSync(path.dirname(ARTIFACTS_FILE), { recursive: true });
  // Write then rename, so a parallel process never reads a half-written file.
  const tmp = `${ARTIFACTS_FILE}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(tmp, `${JSON.stringify(compiled, null, 1)}\n`);
  renameSync(tmp, ARTIFACTS_FILE);
  return (loaded = compiled);
}
