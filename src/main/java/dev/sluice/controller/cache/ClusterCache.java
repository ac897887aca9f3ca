package dev.sluice.controller.cache;

import dev.sluice.Integrations;
import dev.sluice.api.v1beta2.ClusterQueue;
import dev.sluice.api.v1beta2.LocalQueue;
import dev.sluice.api.v1beta2.ResourceFlavor;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.controller.store.JobItemStore;
import dev.sluice.controller.store.StrippedItemStore;
import dev.sluice.controller.store.WorkloadStore;
import dev.sluice.jobs.JobKind;
import dev.sluice.jobs.JobKinds;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * The informers Sluice decides from, one per type, each handing the engine loop a {@link Ref} on every change.
 * Reads are thread-safe; the loop reads here, never the API server, except to re-read after a write conflict.
 */
public final class ClusterCache implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(ClusterCache.class);
    public static final String BY_OWNER = "byOwner";

    public final SharedIndexInformer<ResourceFlavor> flavors;
    public final SharedIndexInformer<ClusterQueue> clusterQueues;
    public final SharedIndexInformer<dev.sluice.api.v1beta2.Cohort> cohorts;
    public final SharedIndexInformer<dev.sluice.api.v1beta2.AdmissionCheck> admissionChecks;
    public final SharedIndexInformer<LocalQueue> localQueues;
    public final SharedIndexInformer<Namespace> namespaces;
    final SharedIndexInformer<PriorityClass> priorityClasses;
    public final SharedIndexInformer<Workload> workloads;
    /** Workloads without pod sets (those are in their engine form), and that engine form. */
    public final WorkloadStore workloadStore = new WorkloadStore();
    /** Informers of the job kinds watched; read from other threads (health, tests), so concurrent. */
    public final Map<JobKind, SharedIndexInformer<GenericKubernetesResource>> jobs = new ConcurrentHashMap<>();
    /** Kinds switched on whose CRD the cluster does not serve (yet): looked for again now and then. */
    private final List<JobKind> absent = new ArrayList<>();
    private final List<SharedIndexInformer<?>> all = new ArrayList<>();
    /** Each informer's exception handler, which knows the last failed list ({@link #listProblems}). */
    private final Map<SharedIndexInformer<?>, InformerRetry> retries = new ConcurrentHashMap<>();
    /** Topologies, Nodes and pods for topology-aware scheduling: running only while a ResourceFlavor names a topology. */
    public final NodeView nodeView;
    /** Each informer's store, to see the initial lists progress. */
    private final Map<SharedIndexInformer<?>, StrippedItemStore<?>> stores = new ConcurrentHashMap<>();
    /** Failed list attempts of all informers, each an answer (progress for the stall check, not a stall). */
    private final java.util.concurrent.atomic.AtomicLong failedAttempts = new java.util.concurrent.atomic.AtomicLong();
    /** Kueue's and client-go's page size for an informer's initial LIST. */
    public static final long DEFAULT_LIST_PAGE_SIZE = 500;

    private final KubernetesClient client;
    private final Consumer<Ref> sink;
    /**
     * Objects per page of every informer's initial LIST ({@code limit}, then {@code continue} until the last page), so
     * no single response grows with the history stored (a Workload LIST of 250,000 passes the API server's limit).
     */
    private final long listPageSize;

    ClusterCache(KubernetesClient client, JobKinds kinds, Consumer<Ref> sink) {
        this(client, kinds, sink, DEFAULT_LIST_PAGE_SIZE);
    }

    public ClusterCache(KubernetesClient client, JobKinds kinds, Consumer<Ref> sink, long listPageSize) {
        if (listPageSize < 1) {
            throw new IllegalArgumentException("sluice.controller.list-page-size must be at least 1 (objects per page of "
                    + "an informer's initial LIST), not " + listPageSize);
        }
        this.client = client;
        this.sink = sink;
        this.listPageSize = listPageSize;
        this.nodeView = new NodeView(client, sink, listPageSize);
        Long limit = listPageSize;
        flavors = add(client.resources(ResourceFlavor.class).withLimit(limit).runnableInformer(0), Ref.FLAVOR, sink);
        clusterQueues = add(client.resources(ClusterQueue.class).withLimit(limit).runnableInformer(0), Ref.CLUSTER_QUEUE,
                sink);
        cohorts = add(client.resources(dev.sluice.api.v1beta2.Cohort.class).withLimit(limit).runnableInformer(0),
                Ref.COHORT, sink);
        admissionChecks = add(client.resources(dev.sluice.api.v1beta2.AdmissionCheck.class).withLimit(limit)
                .runnableInformer(0), Ref.ADMISSION_CHECK, sink);
        localQueues = add(client.resources(LocalQueue.class).inAnyNamespace().withLimit(limit).runnableInformer(0),
                Ref.LOCAL_QUEUE, sink);
        namespaces = add(client.namespaces().withLimit(limit).runnableInformer(0), Ref.NAMESPACE, sink);
        priorityClasses = add(client.scheduling().v1().priorityClasses().withLimit(limit).runnableInformer(0),
                Ref.PRIORITY, sink);
        workloads = client.resources(Workload.class).inAnyNamespace().withLimit(limit).runnableInformer(0);
        workloads.addIndexers(Map.of(BY_OWNER, ClusterCache::ownerKeys));
        add(workloads, Ref.WORKLOAD, sink, workloadStore);
        for (JobKind kind : kinds.all()) {
            if (!served(client, kind)) {
                LOG.warnf("%s (%s) is not served by this cluster: its CRD %s.%s is not installed, so %ss are not queued "
                        + "until it is (Sluice looks again every little while). Install %s, or switch the kind off with %s=false",
                        kind.kind(), kind.apiVersion(), kind.plural(), kind.group(), kind.kind(), installHint(kind),
                        Integrations.property(kind.integrationName()));
                absent.add(kind);
                continue;
            }
            jobs.put(kind, add(jobInformer(kind), typeOf(kind), sink, new JobItemStore(kind)));
        }
    }

    private SharedIndexInformer<GenericKubernetesResource> jobInformer(JobKind kind) {
        return client.genericKubernetesResources(context(kind)).inAnyNamespace().withLimit(listPageSize)
                .runnableInformer(0);
    }

    /** Whether some kinds switched on are not served yet. */
    public boolean hasAbsentKinds() {
        return !absent.isEmpty();
    }

    /**
     * Looks again for the kinds whose CRD was missing; a kind served now is watched from now on (its informer's
     * initial list hands every existing job to the loop). From the engine loop's thread.
     */
    public void watchNewlyServedKinds() {
        for (var it = absent.iterator(); it.hasNext();) {
            JobKind kind = it.next();
            if (!served(client, kind)) {
                continue;
            }
            it.remove();
            SharedIndexInformer<GenericKubernetesResource> informer = jobInformer(kind);
            handOver(informer, typeOf(kind), sink, new JobItemStore(kind));
            jobs.put(kind, informer);
            informer.start();
            LOG.infof("%s (%s) is served now: %ss are queued", kind.kind(), kind.apiVersion(), kind.kind());
        }
    }

    /**
     * Whether the API server serves the kind (its CRD is installed), by discovery of its group version. Built-in
     * kinds are always served. When discovery itself fails other than with 404 the informer is tried anyway.
     */
    public static boolean served(KubernetesClient client, JobKind kind) {
        if (kind.group().isEmpty() || kind.group().equals("batch")) {
            return true;
        }
        try {
            APIResourceList list = client.getApiResources(kind.apiVersion());
            return list != null && list.getResources() != null
                    && list.getResources().stream().anyMatch(r -> kind.plural().equals(r.getName()));
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
                return false;
            }
            LOG.infof("discovery of %s failed (%s); watching %ss anyway", kind.apiVersion(), e.getMessage(), kind.kind());
            return true;
        }
    }

    private static String installHint(JobKind kind) {
        return switch (kind.group()) {
            case "jobset.x-k8s.io" -> "JobSet (https://jobset.sigs.k8s.io)";
            case "kubeflow.org" -> "the Kubeflow training operator (https://www.kubeflow.org/docs/components/trainer/)";
            case "ray.io" -> "KubeRay (https://docs.ray.io/en/latest/cluster/kubernetes/)";
            case "sparkoperator.k8s.io" -> "the Spark operator (https://www.kubeflow.org/docs/components/spark-operator/)";
            case "argoproj.io" -> "Argo Workflows (https://argo-workflows.readthedocs.io)";
            default -> "its CRD";
        };
    }

    /** The kind's explicit resource context ({@link JobKind#resourceContext}). */
    public static ResourceDefinitionContext context(JobKind kind) {
        return kind.resourceContext();
    }

    public static String typeOf(JobKind kind) {
        return kind.kind() + "." + kind.group();
    }

    /** Owner keys "Kind.group/namespace/name" of a Workload, for finding a deleted job's Workloads. */
    public static List<String> ownerKeys(Workload wl) {
        List<String> keys = new ArrayList<>();
        if (wl.getMetadata().getOwnerReferences() != null) {
            for (OwnerReference o : wl.getMetadata().getOwnerReferences()) {
                String api = o.getApiVersion() == null ? "" : o.getApiVersion();
                String group = api.contains("/") ? api.substring(0, api.indexOf('/')) : "";
                keys.add(ownerKey(o.getKind() + "." + group, wl.getMetadata().getNamespace(), o.getName()));
            }
        }
        return keys;
    }

    static String ownerKey(String jobType, String namespace, String name) {
        return jobType + "/" + namespace + "/" + name;
    }

    private <T extends HasMetadata> SharedIndexInformer<T> add(SharedIndexInformer<T> informer, String type,
            Consumer<Ref> sink) {
        return add(informer, type, sink, new StrippedItemStore<>());
    }

    /** "Workloads (kueue.x-k8s.io/v1beta2)": what an informer lists, for its log lines. */
    private static String describe(SharedIndexInformer<?> informer, String type) {
        Class<?> api = informer.getApiTypeClass();
        if (api == GenericKubernetesResource.class || !HasMetadata.class.isAssignableFrom(api)) {
            return type;
        }
        @SuppressWarnings("unchecked")
        Class<? extends HasMetadata> typed = (Class<? extends HasMetadata>) api;
        return HasMetadata.getKind(typed) + "s (" + HasMetadata.getApiVersion(typed) + ")";
    }

    private <T extends HasMetadata> SharedIndexInformer<T> add(SharedIndexInformer<T> informer, String type,
            Consumer<Ref> sink, StrippedItemStore<T> store) {
        handOver(informer, type, sink, store);
        all.add(informer);
        stores.put(informer, store);
        return informer;
    }

    private <T extends HasMetadata> void handOver(SharedIndexInformer<T> informer, String type,
            Consumer<Ref> sink, StrippedItemStore<T> store) {
        informer.itemStore(store);
        // a failed first list is tried again (fabric8 would stop the informer), so a start survives an API server
        // that cannot answer yet; each answer counts as progress for startAndSync's stall check
        boolean jobKind = store instanceof JobItemStore;
        InformerRetry retry = new InformerRetry(describe(informer, type), !jobKind,
                Math.max(1, client.getConfiguration().getWatchReconnectInterval()), failedAttempts::incrementAndGet);
        if (!jobKind) {
            retries.put(informer, retry); // a job kind that cannot be listed is left out and logged instead
        }
        informer.exceptionHandler(retry);
        informer.addEventHandler(new ResourceEventHandler<T>() {
            @Override
            public void onAdd(T obj) {
                sink.accept(ref(type, obj));
            }

            @Override
            public void onUpdate(T oldObj, T newObj) {
                sink.accept(ref(type, newObj));
            }

            @Override
            public void onDelete(T obj, boolean deletedFinalStateUnknown) {
                sink.accept(ref(type, obj));
            }
        });
    }

    private static Ref ref(String type, HasMetadata obj) {
        return new Ref(type, obj.getMetadata().getNamespace(), obj.getMetadata().getName());
    }

    /**
     * Starts every informer and waits until each has listed its objects. A job kind whose API the cluster does not
     * serve (JobSet CRD not installed) is left out with a warning; every other informer must sync.
     * <p>
     * {@code stallSeconds} bounds how long a list may go without a new object, not how long it may take: a quarter of
     * a million Workloads take minutes to list on a small machine, and a replica that gave up after a fixed time would
     * start again from nothing, give up again, and never become ready (Kueue #4266). A list that stops (the API server
     * does not answer) fails after {@code stallSeconds}. A list that is answered with an error is retried with back-off
     * ({@link InformerRetry}) and waited for: an error is an answer, not a stall, and a controller that gave up would
     * only be restarted into the same answer (a conversion webhook not reachable yet, RBAC not granted yet).
     */
    public void startAndSync(long stallSeconds) throws Exception {
        Map<SharedIndexInformer<?>, CompletableFuture<Void>> started = new LinkedHashMap<>();
        for (SharedIndexInformer<?> informer : all) {
            started.put(informer, informer.start().toCompletableFuture());
        }
        for (var e : started.entrySet()) {
            JobKind optional = kindOf(e.getKey());
            try {
                awaitListed(e.getKey(), e.getValue(), stallSeconds);
            } catch (Exception ex) {
                if (optional == null) {
                    throw ex;
                }
                LOG.warnf("%s %s could not be watched (%s); such jobs are not queued until it can be (looked for again "
                        + "every sluice.controller.crd-recheck)", optional.apiVersion(), optional.kind(), ex.getMessage());
                e.getKey().stop();
                jobs.remove(optional);
                absent.add(optional);
            }
        }
    }

    /**
     * Waits for the informer's initial list while the lists make progress: fails once no informer got a new object
     * for stallSeconds. All of them count: they share one event loop ({@link InformerClient}), so a short list's
     * answer may wait behind a long one's pages, and an empty list has no objects to show progress by.
     */
    private void awaitListed(SharedIndexInformer<?> informer, CompletableFuture<Void> listed, long stallSeconds)
            throws Exception {
        long seen = listedSoFar();
        long lastProgress = System.nanoTime();
        long stall = TimeUnit.SECONDS.toNanos(stallSeconds);
        while (true) {
            long left = stall - (System.nanoTime() - lastProgress);
            if (left <= 0) {
                throw new java.util.concurrent.TimeoutException("the initial list of "
                        + informer.getApiTypeClass().getSimpleName() + " is not done and no informer got a new object for "
                        + stallSeconds + " s (" + seen + " objects listed in all)");
            }
            try {
                listed.get(Math.min(left, TimeUnit.SECONDS.toNanos(1)), TimeUnit.NANOSECONDS);
                return;
            } catch (java.util.concurrent.TimeoutException notYet) {
                long now = listedSoFar();
                if (now != seen) {
                    seen = now;
                    lastProgress = System.nanoTime();
                }
            }
        }
    }

    /** Objects the informers have put into their stores since they started, and the failed lists (answers too). */
    private long listedSoFar() {
        long n = failedAttempts.get();
        for (StrippedItemStore<?> store : stores.values()) {
            n += store.puts();
        }
        return n;
    }

    private JobKind kindOf(SharedIndexInformer<?> informer) {
        for (var e : jobs.entrySet()) {
            if (e.getValue() == informer) {
                return e.getKey();
            }
        }
        return null;
    }

    public boolean synced() {
        return all.stream().filter(i -> kindOf(i) == null || jobs.containsValue(i)).allMatch(SharedIndexInformer::hasSynced);
    }

    /**
     * Why an informer has not listed yet, one line each ("could not list Pods (v1): the API server answered HTTP 403
     * ..."), the node view's included; empty when every running informer listed or has not failed.
     */
    public List<String> listProblems() {
        List<String> out = new ArrayList<>();
        retries.forEach((informer, retry) -> {
            if (!informer.hasSynced() && retry.lastFailure() != null) {
                out.add(retry.lastFailure());
            }
        });
        out.addAll(nodeView.listProblems());
        return out;
    }

    public static <T extends HasMetadata> T get(SharedIndexInformer<T> informer, String namespace, String name) {
        return informer.getStore().getByKey(namespace == null ? name : Cache.namespaceKeyFunc(namespace, name));
    }

    /**
     * Every cached object of the informer. The Workloads' is {@link WorkloadStore#list}: it materialises each finished
     * Workload as the reader reaches it, where the informer's own list would make all of them at once.
     */
    @SuppressWarnings("unchecked")
    public <T> List<T> list(SharedIndexInformer<T> informer) {
        if (informer == (Object) workloads) {
            return (List<T>) workloadStore.list();
        }
        return informer.getStore().list();
    }

    public List<Workload> workloadsOwnedBy(String jobType, String namespace, String name) {
        return workloads.getIndexer().byIndex(BY_OWNER, ownerKey(jobType, namespace, name));
    }

    @Override
    public void close() {
        nodeView.close();
        for (SharedIndexInformer<?> informer : all) {
            informer.stop();
        }
        jobs.values().forEach(SharedIndexInformer::stop); // also those started later
    }
}
