package dev.sluice.webhook;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.sluice.Integrations;
import dev.sluice.SluiceMode;
import dev.sluice.jobs.JobKinds;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.function.Function;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * The admission webhooks, on the HTTPS main port. Each takes an {@code admission.k8s.io/v1} AdmissionReview and
 * answers with one carrying the request's uid; a body that is not such a review gets 400 with the reason. Needs no
 * cluster connection: everything it decides follows from the review itself.
 * <ul>
 * <li>{@code /mutate}: jobs labeled with a queue are held, with the exclusive-topology affinity injected;</li>
 * <li>{@code /mutate-default-queue}: the same, and an unlabeled job is queued in LocalQueue {@code default}; only the
 *     webhook entry for namespaces labeled {@code sluice.dev/queue-by-default: "true"} calls it;</li>
 * <li>{@code /validate}: queued jobs' suspend and labels are guarded, queue objects are checked;</li>
 * <li>{@code /convert}: an {@code apiextensions.k8s.io/v1} ConversionReview of kueue.x-k8s.io objects, v1beta1 ⇄
 *     v1beta2 (the CRDs' conversion webhook); always answered with a review, Success or Failure.</li>
 * </ul>
 */
@Path("/")
public class AdmissionEndpoints {
    private static final Logger LOG = Logger.getLogger(AdmissionEndpoints.class);
    static final ObjectMapper MAPPER = JsonMapper.builder().build();

    private final SluiceMode mode;
    private final JobMutation mutation;
    private final JobGuard guard;

    public AdmissionEndpoints(@ConfigProperty(name = "sluice.mode", defaultValue = "all") SluiceMode mode,
            @ConfigProperty(name = "sluice.controller-username") String controllerUsername, Integrations integrations) {
        this.mode = mode;
        // only the kinds switched on: any other kind passes untouched
        JobKinds kinds = integrations.kinds();
        this.mutation = new JobMutation(kinds, MAPPER);
        this.guard = new JobGuard(kinds, MAPPER, controllerUsername);
    }

    @POST
    @Path("mutate")
    @Consumes(MediaType.WILDCARD)
    public Response mutate(byte[] body) {
        return review(body, request -> mutation.mutate(request, false));
    }

    @POST
    @Path("mutate-default-queue")
    @Consumes(MediaType.WILDCARD)
    public Response mutateDefaultQueue(byte[] body) {
        return review(body, request -> mutation.mutate(request, true));
    }

    @POST
    @Path("validate")
    @Consumes(MediaType.WILDCARD)
    public Response validate(byte[] body) {
        return review(body, request -> QueueObjectValidation.handles(request)
                ? QueueObjectValidation.validate(request)
                : guard.validate(request));
    }

    @POST
    @Path("convert")
    @Consumes(MediaType.WILDCARD)
    public Response convert(byte[] body) {
        if (!mode.servesWebhooks()) {
            return notServed();
        }
        String answer;
        try {
            answer = MAPPER.writeValueAsString(ConversionReviews.answer(body == null ? new byte[0] : body, MAPPER));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the ConversionReview answer", e);
        }
        return Response.ok(answer, MediaType.APPLICATION_JSON).build();
    }

    private Response notServed() {
        return text(Response.Status.NOT_FOUND, "webhooks are not served in sluice.mode=" + mode
                + "; point the webhook configurations at a replica in mode webhook or all");
    }

    private Response review(byte[] body, Function<ReviewRequest, Verdict> decide) {
        if (!mode.servesWebhooks()) {
            return notServed();
        }
        ReviewRequest request;
        Verdict verdict;
        try {
            request = ReviewRequest.parse(body == null ? new byte[0] : body, MAPPER);
            verdict = decide.apply(request);
        } catch (BadAdmissionReviewException e) {
            return text(Response.Status.BAD_REQUEST, e.getMessage());
        } catch (IllegalArgumentException e) {
            // the object does not fit its kind's shape (e.g. labels that are not a map of strings)
            return text(Response.Status.BAD_REQUEST, "request.object is not a valid Kubernetes object: "
                    + firstLine(e.getMessage()));
        }
        if (!verdict.allowed()) {
            LOG.debugf("denied %s %s %s/%s: %s", request.operation(), request.kind(), request.namespace(),
                    request.name(), verdict.message());
        }
        return Response.ok(answer(request.uid(), verdict), MediaType.APPLICATION_JSON).build();
    }

    private static String answer(String uid, Verdict verdict) {
        AdmissionResponse response = new AdmissionResponse();
        response.setUid(uid);
        response.setAllowed(verdict.allowed());
        if (verdict.patch() != null) {
            response.setPatchType("JSONPatch");
            response.setPatch(Base64.getEncoder().encodeToString(
                    verdict.patch().toString().getBytes(StandardCharsets.UTF_8)));
        }
        if (!verdict.allowed()) {
            response.setStatus(new StatusBuilder().withStatus("Failure").withCode(verdict.code())
                    .withReason(verdict.reason()).withMessage(verdict.message()).build());
        }
        AdmissionReview review = new AdmissionReview();
        review.setApiVersion(ReviewRequest.REVIEW_API_VERSION);
        review.setKind("AdmissionReview");
        review.setResponse(response);
        try {
            return MAPPER.writeValueAsString(review);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the AdmissionReview answer", e);
        }
    }

    private static Response text(Response.Status status, String message) {
        return Response.status(status).type(MediaType.TEXT_PLAIN_TYPE.withCharset("UTF-8")).entity(message).build();
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
