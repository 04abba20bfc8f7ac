import type { FastifyInstance } from 'fastify';
import type { UsageMeter } from '../services/usage-meter.js';

/**
 * Meters every data-plane request that passed authentication (it has a principal) against its cluster, after the
 * answer is sent; refused credentials cost the cluster nothing. The app closes the meter after everything that
 * counts (the webhook worker too), before the storage closes.
 */
export function registerMetering(app: FastifyInstance, meter: UsageMeter): void {
  app.addHook('onResponse', (request, _reply, done) => {
    const principal = request.principal;
    if (principal !== undefined) meter.count(principal.clusterId, 'requests');
    done();
  });
}
