import type { FastifyReply } from 'fastify';

/** Answers a CSV export as a download, never cached (it holds the clinic's data). */
export function sendCsv(reply: FastifyReply, { csv, fileName }: { csv: string; fileName: string }): FastifyReply {
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'no-store')
    .send(csv);
}
