// The runner's side of an action, as far as patchloop uses it: inputs from `INPUT_*`, workflow
// commands on stdout (`::warning::`, `::add-mask::`, …), outputs and the step summary through the
// files the runner names (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY). These are the formats GitHub's
// workflow-command documentation gives. @actions/core would load an HTTP client of its own (for
// OIDC tokens) on import, ~50 ms on the way to the first model request; this is all it is used for.
import { randomUUID } from 'node:crypto';
import { appendFileSync, existsSync } from 'node:fs';
import { EOL } from 'node:os';

/** The data part of a command: `%`, CR and LF escaped. */
function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function command(name: string, message: string): void {
  process.stdout.write(`::${name}::${escapeData(message)}${EOL}`);
}

/** An input as the runner passes it (`INPUT_<NAME>`, spaces as underscores), trimmed; '' when unset. */
export function getInput(name: string): string {
  return (process.env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim();
}

/** Masks `secret` in the rest of the job's log. */
export function setSecret(secret: string): void {
  command('add-mask', secret);
}

export function debug(message: string): void {
  command('debug', message);
}

export function info(message: string): void {
  process.stdout.write(`${message}${EOL}`);
}

export function notice(message: string): void {
  command('notice', message);
}

export function warning(message: string): void {
  command('warning', message);
}

export function error(message: string): void {
  command('error', message);
}

/** An error annotation, and the step fails (exit code 1) when the process ends. */
export function setFailed(message: string): void {
  process.exitCode = 1;
  error(message);
}

function appendTo(variable: string, text: string): void {
  const path = process.env[variable];
  if (!path) throw new Error(`${variable} is not set: the runner gave this step no file for it`);
  if (!existsSync(path)) throw new Error(`${variable} names ${path}, which does not exist`);
  appendFileSync(path, text, { encoding: 'utf8' });
}

/**
 * A step output. In GITHUB_OUTPUT as `name<<delimiter`, the value, the delimiter (a fresh random
 * one each time, which neither may contain); without that file, the older `::set-output` command.
 */
export function setOutput(name: string, value: string): void {
  if (!process.env.GITHUB_OUTPUT) {
    process.stdout.write(EOL);
    process.stdout.write(`::set-output name=${escapeProperty(name)}::${escapeData(value)}${EOL}`);
    return;
  }
  const delimiter = `ghadelimiter_${randomUUID()}`;
  if (name.includes(delimiter) || value.includes(delimiter))
    throw new Error(`the output ${name} holds its own delimiter`);
  appendTo('GITHUB_OUTPUT', `${name}<<${delimiter}${EOL}${value}${EOL}${delimiter}${EOL}`);
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** Appends markdown to the job's summary page (GITHUB_STEP_SUMMARY). */
export function appendSummary(markdown: string): void {
  appendTo('GITHUB_STEP_SUMMARY', markdown);
}
