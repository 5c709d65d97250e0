// The types of vendor/socket.io.esm.min.js, the ESM build of socket.io-client that the Maven build
// copies next to the demo (it is not in this folder): the package's own types.
export { io } from 'socket.io-client';
