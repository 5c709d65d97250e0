package io.editlock.auth;

import io.micrometer.core.instrument.Tags;
import io.quarkus.micrometer.runtime.HttpServerMetricsTagsContributor;
import jakarta.inject.Singleton;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Keeps the tags of {@code http_server_requests_seconds} to a bounded set of values, whatever callers
 * send: series that anyone may add, without a token, would grow a node's heap and every scrape for as
 * long as it runs.
 *
 * <p>The {@code method} tag: a method outside HTTP's standard ones is counted as {@code OTHER}. Vert.x
 * accepts any token as a method, and Micrometer bounds only the {@code uri} tag's values; each new method
 * made three new series for every {@code uri} and status it reached.
 *
 * <p>The {@code uri} tag: every response that no route's template describes gets a fixed one,
 * {@code NOT_FOUND}, {@code REDIRECTION} or {@code UNKNOWN}, as Micrometer names them. Without it, a
 * refusal made before any route matched ({@link TokenFirst}'s 401,
 * a path that is not valid percent-encoding, an oversized body, a method the path does not take) is tagged
 * with the path as the caller sent it, and after {@code quarkus.micrometer.binder.http-server.max-uri-tags}
 * distinct paths Micrometer records nothing with a new {@code uri}: anyone without a token could stop the
 * routes not called yet from ever showing. Quarkus's own {@code suppress4xx-errors} is not enough: it takes a
 * path that differs from its normalized form ({@code //api/x}, {@code /api/x//}) for a template, and it
 * would erase the WebSocket and Socket.IO endpoints' refusals as well.
 *
 * <p>What keeps its tag: a REST route's template; the path of a Vert.x route of one fixed path
 * ({@code /locking}, {@code /socket.io/}); and a static file served (under 400) by its own name. A path that
 * is not in its plain form (an empty, {@code .} or {@code ..} segment, a {@code ;} or a {@code %}) is never
 * taken as it came: the router and the file handler resolve such paths, so countless spellings would name
 * one file.
 */
@Singleton
public class BoundedRequestTags implements HttpServerMetricsTagsContributor {

    /** Where Quarkus REST puts the matched route's template (the micrometer binder reads it there too). */
    private static final String REST_TEMPLATE = "UrlPathTemplate";
    /** Where the micrometer binder puts the path of the Vert.x route that took the request. */
    private static final String VERTX_ROUTE = "VertxRoute";
    /** The route Quarkus REST and the catch-all handlers are mounted on: it names no path. */
    private static final String ANY_PATH = "/";
    /** The slashes at either end of a path, which Quarkus folds before it matches. */
    private static final Pattern END_SLASHES = Pattern.compile("^/+|/+$");
    /** HTTP's methods (RFC 9110, and PATCH): the only values the {@code method} tag keeps as they came. */
    private static final Set<String> STANDARD_METHODS =
            Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH");
    /** The {@code method} tag of every other method. */
    private static final String OTHER_METHOD = "OTHER";

    @Override
    public Tags contribute(Context context) {
        Tags method = STANDARD_METHODS.contains(context.request().method().name())
                ? Tags.empty()
                : Tags.of("method", OTHER_METHOD);
        return method.and(uri(context));
    }

    private static Tags uri(Context context) {
        if (context.requestContextLocalData(REST_TEMPLATE) != null) {
            return Tags.empty();
        }
        int status = context.response().statusCode();
        if (plain(context.request().path())) {
            Object route = context.requestContextLocalData(VERTX_ROUTE);
            if ((route != null && !ANY_PATH.equals(route)) || status < 400) {
                return Tags.empty();
            }
        }
        return Tags.of("uri", fixedUri(status));
    }

    private static String fixedUri(int status) {
        if (status == 404) {
            return "NOT_FOUND";
        }
        return status / 100 == 3 ? "REDIRECTION" : "UNKNOWN";
    }

    /**
     * Whether the path is in the one form its tag would keep: Quarkus already folds leading and trailing
     * slashes, so only what lies between them counts.
     */
    static boolean plain(String path) {
        if (path == null || path.indexOf('%') >= 0 || path.indexOf(';') >= 0) {
            return false;
        }
        String inner = END_SLASHES.matcher(path).replaceAll("");
        if (inner.isEmpty()) {
            return true;
        }
        for (String segment : inner.split("/", -1)) {
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                return false;
            }
        }
        return true;
    }
}
