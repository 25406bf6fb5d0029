import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * Fastify's two lines per request ("incoming request", "request completed") at `debug`, so that at
 * the default `info` the start banner and the warnings are what a terminal shows. A request that
 * failed on the server's side (5xx, or an error while answering) is still logged at `error`, with
 * its request id (the request logger's `reqId`). Same fields as Fastify's own lines, so the
 * logger's serializers and redaction apply unchanged.
 */
export class RequestLogLevels extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    if (error) {
      reply.log.error({ res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    } else if (reply.statusCode >= 500) {
      // The failing request's own line, with the request: the one an operator looks for.
      reply.log.error({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
    } else {
      reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
    }
  }
}
