#!/usr/bin/env node
// The installed `privacy-desk` command: runs the TypeScript CLI through tsx's ESM loader.
import { register } from 'tsx/esm/api';

register();
await import('../cli/main.ts');
