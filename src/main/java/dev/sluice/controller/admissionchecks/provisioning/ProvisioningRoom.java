package dev.sluice.controller.admissionchecks.provisioning;

import dev.sluice.api.v1beta2.AdmissionCheck;
import dev.sluice.api.v1beta2.AdmissionCheckState;
import dev.sluice.api.v1beta2.ProvisioningRequestConfig;
import dev.sluice.api.v1beta2.ResourceFlavor;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.controller.cache.InformerClient;
import dev.sluice.controller.write.EventRecorder;
import dev.sluice.controller.write.WriteFailures;
import dev.sluice.controller.write.Writes;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * The ProvisioningRequest admission check controller while it runs (one leader term): informers on AdmissionChecks,
 * ProvisioningRequestConfigs, ResourceFlavors, Workloads with checks, ProvisioningRequests and the PodTemplates it made;
 * every event names what to reconcile again (a Workload, an AdmissionCheck), and one thread reconciles each key in
 * turn, a key queued twice once. A failed reconcile is tried again after a back-off (1 s doubling to 5 minutes), so
 * the controller converges on the cluster as it is; closing the room drops everything, and the next term builds it
 * again from the cluster.
 */
final class ProvisioningRoom implements ProvisioningCache, AutoCloseable {

    private static final Logger LOG = Logger.getLogger(ProvisioningRoom.class);
    private static final long FIRST_RETRY_MILLIS = 1000;
    private static final long MAX_RETRY_MILLIS = 300_000;
    private static final String OWNER_INDEX = "owner";

    /** What to reconcile: a Workload (namespace and name) or an AdmissionCheck (name only). */
    record Key(boolean workload, String namespace, String name) {
        static Key workload(String namespace, String name) {
            return new Key(true, namespace, name);
        }

        static Key check(String name) {
            return new Key(false, null, name);
        }
    }

    private final InformerClient informerClient;
    private final SharedIndexInformer<AdmissionCheck> checks;
    private final SharedIndexInformer<ProvisioningRequestConfig> configs;
    private final SharedIndexInformer<ResourceFlavor> flavors;
    private final SharedIndexInformer<Workload> workloads;
    private final SharedIndexInformer<GenericKubernetesResource> requests;
    private final SharedIndexInformer<PodTemplate> templates;
    private final List<SharedIndexInformer<?>> all = new ArrayList<>();

    private final WorkloadReconciler workloadReconciler;
    private final AdmissionCheckReconciler checkReconciler;
    private final WriteFailures failures;
    private final EventRecorder events;
    private final ScheduledExecutorService worker;
    private final LinkedHashSet<Key> queued = new LinkedHashSet<>();
    private final Map<Key, Integer> failuresInARow = new HashMap<>();
    private volatile boolean closed;

    ProvisioningRoom(KubernetesClient client, dev.sluice.metrics.AdmissionEvents metrics, Clock clock,
            dev.sluice.controller.write.EventRate eventRate) {
        this.informerClient = new InformerClient(client.getConfiguration());
        KubernetesClient ic = informerClient.client();
        checks = ic.resources(AdmissionCheck.class).runnableInformer(0);
        configs = ic.resources(ProvisioningRequestConfig.class).runnableInformer(0);
        flavors = ic.resources(ResourceFlavor.class).runnableInformer(0);
        workloads = ic.resources(Workload.class).inAnyNamespace().runnableInformer(0);
        workloads.itemStore(new ChecksOnlyStore());
        requests = ic.genericKubernetesResources(ProvisioningRequests.CONTEXT).inAnyNamespace().runnableInformer(0);
        requests.addIndexers(Map.of(OWNER_INDEX, pr -> owners(pr)));
        templates = ic.v1().podTemplates().inAnyNamespace()
                .withLabel(WorkloadReconciler.MANAGED_LABEL, "true").runnableInformer(0);
        Writes writes = new Writes(client);
        this.events = new EventRecorder(client, metrics, dev.sluice.dashboard.Journal.standard(), eventRate);
        this.failures = new WriteFailures(events, metrics, clock);
        this.workloadReconciler = new WorkloadReconciler(client, this, writes, events, clock);
        this.checkReconciler = new AdmissionCheckReconciler(this, writes, clock);
        this.worker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sluice-provisioning");
            t.setDaemon(true);
            return t;
        });
        watch(checks, this::checkChanged);
        watch(configs, this::configChanged);
        watch(flavors, f -> {
        });
        watch(workloads, wl -> {
            if (ChecksOnlyStore.hasChecks(wl)) {
                enqueue(Key.workload(wl.getMetadata().getNamespace(), wl.getMetadata().getName()));
            }
        });
        watch(requests, this::ownedChanged);
        watch(templates, this::ownedChanged);
    }

    private <T extends HasMetadata> void watch(SharedIndexInformer<T> informer, Consumer<T> changed) {
        informer.exceptionHandler((started, t) -> {
            LOG.infof("provisioning controller: listing or watching failed (%s); retrying", t.toString());
            return !closed;
        });
        informer.addEventHandler(new ResourceEventHandler<T>() {
            @Override
            public void onAdd(T obj) {
                changed.accept(obj);
            }

            @Override
            public void onUpdate(T oldObj, T newObj) {
                changed.accept(oldObj);
                changed.accept(newObj);
            }

            @Override
            public void onDelete(T obj, boolean deletedFinalStateUnknown) {
                changed.accept(obj);
            }
        });
        all.add(informer);
    }

    private volatile CompletableFuture<Void> started = new CompletableFuture<>();

    /** Starts the informers; the returned future completes once every one has listed. */
    CompletableFuture<Void> start() {
        List<CompletableFuture<?>> each = new ArrayList<>();
        for (SharedIndexInformer<?> informer : all) {
            each.add(informer.start().toCompletableFuture());
        }
        started = CompletableFuture.allOf(each.toArray(CompletableFuture[]::new));
        return started;
    }

    /** Completes once every informer has listed. */
    CompletableFuture<Void> started() {
        return started;
    }

    private void checkChanged(AdmissionCheck ac) {
        if (ac.getSpec() == null || !WorkloadReconciler.CONTROLLER_NAME.equals(ac.getSpec().getControllerName())) {
            return;
        }
        enqueue(Key.check(ac.getMetadata().getName()));
        workloadsUsing(ac.getMetadata().getName());
    }

    private void configChanged(ProvisioningRequestConfig prc) {
        for (AdmissionCheck ac : checks.getStore().list()) {
            if (ac.getSpec() != null && WorkloadReconciler.CONTROLLER_NAME.equals(ac.getSpec().getControllerName())
                    && ParametersRef.problem(ac.getSpec().getParameters()) == null
                    && prc.getMetadata().getName().equals(ac.getSpec().getParameters().getName())) {
                enqueue(Key.check(ac.getMetadata().getName()));
                workloadsUsing(ac.getMetadata().getName());
            }
        }
    }

    private void workloadsUsing(String check) {
        for (Workload wl : workloads.getStore().list()) {
            if (WorkloadReconciler.find(WorkloadReconciler.checks(wl), check) != null) {
                enqueue(Key.workload(wl.getMetadata().getNamespace(), wl.getMetadata().getName()));
            }
        }
    }

    /** A request or PodTemplate changed: its Workload (the owner of that kind) is looked at again. */
    private void ownedChanged(HasMetadata obj) {
        if (obj.getMetadata().getOwnerReferences() == null) {
            return;
        }
        for (OwnerReference ref : obj.getMetadata().getOwnerReferences()) {
            if ("Workload".equals(ref.getKind())) {
                enqueue(Key.workload(obj.getMetadata().getNamespace(), ref.getName()));
            }
        }
    }

    private static List<String> owners(HasMetadata obj) {
        List<String> out = new ArrayList<>();
        if (obj.getMetadata().getOwnerReferences() != null) {
            for (OwnerReference ref : obj.getMetadata().getOwnerReferences()) {
                out.add(obj.getMetadata().getNamespace() + "/" + ref.getName());
            }
        }
        return out;
    }

    void enqueue(Key key) {
        synchronized (queued) {
            if (closed || !queued.add(key)) {
                return;
            }
        }
        try {
            worker.execute(this::runNext);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // closing
        }
    }

    private void runNext() {
        Key key;
        synchronized (queued) {
            var it = queued.iterator();
            if (!it.hasNext()) {
                return;
            }
            key = it.next();
            it.remove();
        }
        if (closed) {
            return;
        }
        try {
            if (key.workload()) {
                workloadReconciler.reconcile(key.namespace(), key.name());
            } else {
                checkReconciler.reconcile(key.name());
            }
            failuresInARow.remove(key);
        } catch (RuntimeException e) {
            retryLater(key, e);
        }
    }

    private void retryLater(Key key, RuntimeException e) {
        int n = failuresInARow.merge(key, 1, Integer::sum);
        long delay = Math.min(MAX_RETRY_MILLIS, FIRST_RETRY_MILLIS << Math.min(20, n - 1));
        String what = key.workload() ? "Workload " + key.namespace() + "/" + key.name() : "AdmissionCheck " + key.name();
        if (e instanceof WorkloadReconciler.Told) {
            LOG.debugf("provisioning check of %s: %s; tried again in %d s", what, e.getMessage(), delay / 1000);
        } else if (e instanceof KubernetesClientException k) {
            HasMetadata about = key.workload() ? workload(key.namespace(), key.name()) : admissionCheck(key.name());
            failures.failed(about, "provisioningrequests", "reconcile", "reconcile the provisioning check of " + what, k);
        } else {
            LOG.warnf("provisioning check of %s: %s; tried again in %d s", what, e.getMessage(), delay / 1000);
        }
        try {
            worker.schedule(() -> enqueue(key), delay, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException closing) {
            // the room is closing
        }
    }

    @Override
    public void close() {
        closed = true;
        worker.shutdownNow();
        for (SharedIndexInformer<?> informer : all) {
            informer.close();
        }
        informerClient.close();
        events.close();
    }

    // ProvisioningCache, from the informers' stores

    @Override
    public Workload workload(String namespace, String name) {
        return workloads.getStore().getByKey(Cache.namespaceKeyFunc(namespace, name));
    }

    @Override
    public AdmissionCheck admissionCheck(String name) {
        return checks.getStore().getByKey(name);
    }

    @Override
    public ProvisioningRequestConfig config(String name) {
        return configs.getStore().getByKey(name);
    }

    @Override
    public ResourceFlavor flavor(String name) {
        return flavors.getStore().getByKey(name);
    }

    @Override
    public List<GenericKubernetesResource> requestsOwnedBy(String namespace, String workload) {
        return requests.getIndexer().byIndex(OWNER_INDEX, namespace + "/" + workload);
    }

    @Override
    public GenericKubernetesResource request(String namespace, String name) {
        return requests.getStore().getByKey(Cache.namespaceKeyFunc(namespace, name));
    }

    @Override
    public PodTemplate podTemplate(String namespace, String name) {
        return templates.getStore().getByKey(Cache.namespaceKeyFunc(namespace, name));
    }
}
