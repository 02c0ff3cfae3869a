// Imported first by `npm start` and `npm run dev`: on an unsupported Node.js, one clear line instead
// of a stack trace from a dependency that needs a newer one.
const [major] = process.versions.node.split('.').map(Number);
if (major < 22) {
  console.error(
    `Odontia necesita Node.js 22 o posterior (22 y 24 son las versiones LTS con soporte) y este es Node.js ${process.versions.node}: instala una versión LTS actual desde https://nodejs.org y vuelve a ejecutar el comando. / Odontia needs Node.js 22 or later (22 and 24 are the supported LTS lines); this is Node.js ${process.versions.node}.`,
  );
  process.exit(1);
}
