// Basic arithmetic used by the calculator.

export function add(a, b) {
  return a + b;
}

export function subtract(a, b) {
  return a - b;
}

export function multiply(a, b) {
  return a * b;
}

export function divide(a, b) {
  return a / b;
}

export function average(values) {
  const total = values.reduce((sum, v) => add(sum, v), 0);
  return divide(total, values.length);
}
