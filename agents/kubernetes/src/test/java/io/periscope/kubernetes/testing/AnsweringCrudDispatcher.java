package io.periscope.kubernetes.testing;

import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.zjsonpatch.JsonPatchException;

/**
 * fabric8's CRUD dispatcher, answering a JSON patch that does not apply to the object as it is now
 * as kube-apiserver does: 422 Unprocessable Entity, at once. fabric8's own lets the exception
 * escape, the request is never answered, and the client waits out its timeout and retries for about
 * two minutes. It happens when two writers edit one object: the client's {@code edit} is a JSON
 * patch computed against the copy it read, and another writer has shortened a list since (a
 * {@code remove} of an index that is gone). kube-apiserver's JSON patcher turns the failed apply
 * into 422 (kubernetes/kubernetes, staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go,
 * {@code applyJSPatch}); the controllers treat it as any refused write.
 */
public final class AnsweringCrudDispatcher extends KubernetesCrudDispatcher {

    @Override
    public MockResponse handlePatch(RecordedRequest request) {
        try {
            return super.handlePatch(request);
        } catch (JsonPatchException e) {
            String message = "the server rejected our request due to an error in our request: " + e.getMessage();
            return new MockResponse().setResponseCode(422).setHeader("Content-Type", "application/json")
                    .setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":\""
                            + message.replace("\\", "\\\\").replace("\"", "\\\"") + "\",\"reason\":\"Invalid\",\"code\":422}");
        }
    }
}
