// A forwarder with no work of its own, run as a process between a client and an upstream, as
// `nestcast serve --record` is: the floor of what such a hop adds to the time to first byte.
// `tcp`: bytes piped both ways (a process hop, no HTTP). `http`: node:http in, node:http out on a
// keep-alive agent, the body read whole, each upstream chunk written on as it arrives.
// Usage: node forwarding-proxy.mjs tcp|http <upstream url>. Prints its URL, then serves until killed.
import http from 'node:http';
import net from 'node:net';

const [kind, upstreamUrl] = process.argv.slice(2);
const upstream = new URL(upstreamUrl);
const port = Number(upstream.port);

function tcpHop(client) {
  const server = net.connect(port, upstream.hostname);
  client.setNoDelay(true);
  server.setNoDelay(true);
  client.pipe(server).pipe(client);
  client.on('error', () => server.destroy());
  server.on('error', () => client.destroy());
}

const agent = new http.Agent({ keepAlive: true });

function httpHop(req, res) {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    const headers = { ...req.headers, host: upstream.host, 'content-length': String(body.length) };
    const forward = http.request(
      { host: upstream.hostname, port, path: req.url, method: req.method, headers, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        res.flushHeaders();
        answer.on('data', (chunk) => res.write(chunk));
        answer.on('end', () => res.end());
      },
    );
    forward.on('error', () => res.destroy());
    forward.end(body);
  });
}

const server = kind === 'tcp' ? net.createServer(tcpHop) : http.createServer(httpHop);
server.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${server.address().port}\n`));
