/**
 * How the caches hold their objects small without changing what they say: the informer stores
 * ({@code StrippedItemStore}, {@code WorkloadStore} with each Workload's engine form, {@code JobItemStore}), a
 * finished Workload as a summary ({@code FinishedWorkloads}, held as a {@code FinishedRecord}), and the compact forms
 * they are made of ({@code Compact}, {@code PackedMap}, {@code PackedTemplate}, {@code ExactText},
 * {@code ListingStream}); and the placeholder Workload of a job whose pod sets cannot be read
 * ({@code InvalidJobWorkloads}), which the store tells as not queueable.
 * <p>
 * Used by the caches ({@code controller.cache}) and read through them; the writers and reconcilers ask only whether a
 * Workload is a summary, its engine form and the placeholder's problem. It imports only the condition vocabulary.
 */
package dev.sluice.controller.store;
