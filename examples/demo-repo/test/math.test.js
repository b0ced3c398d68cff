import { test } from 'node:test';
import assert from 'node:assert/strict';
import { add, average, divide, multiply, subtract } from '../src/math.js';

test('adds, subtracts and multiplies', () => {
  assert.equal(add(2, 3), 5);
  assert.equal(subtract(2, 3), -1);
  assert.equal(multiply(4, 3), 12);
});

test('divides', () => {
  assert.equal(divide(6, 3), 2);
});

test('refuses to divide by zero', () => {
  assert.throws(() => divide(1, 0), RangeError);
});

test('averages', () => {
  assert.equal(average([1, 2, 3]), 2);
});
