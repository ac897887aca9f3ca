/**
 * What the controller decides from: {@link dev.sluice.controller.cache.ClusterCache}, one informer per type, each
 * handing the engine loop a {@link dev.sluice.controller.cache.Ref} on every change; the informers' own client on a
 * Vert.x of its own ({@code InformerClient}); what an informer does when a list or watch fails
 * ({@code InformerRetry}); and priority classes as the caches see them ({@code CachedPriorityClasses}).
 * <p>
 * Read by the session and the reconcilers above it, and by {@code LiveState} for the readers. A failed list or
 * watch is described in the writers' words ({@code controller.write}'s {@code WriteFailures}), the room below. How each
 * object is held small is {@code controller.store}'s.
 */
package dev.sluice.controller.cache;
