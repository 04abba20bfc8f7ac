// libqp ships no types; the tests use its decoder only.
declare module 'libqp' {
  const libqp: { decode(text: string): Buffer };
  export default libqp;
}
