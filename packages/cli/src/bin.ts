#!/usr/bin/env node
import { basename } from 'node:path';
import { systemIO } from './iostreams.js';
import { main } from './main.js';

// `dp … | head` closes the pipe early; that is the reader's choice, not a failure.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

const invokedAs = basename(process.argv[1] ?? 'dp').replace(/\.[cm]?[jt]s$/, '');
process.exitCode = await main(
  process.argv.slice(2),
  systemIO(),
  invokedAs === 'dataplatform' ? 'dataplatform' : 'dp',
);
