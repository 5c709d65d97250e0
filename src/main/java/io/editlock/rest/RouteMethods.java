package io.editlock.rest;

import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Singleton;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Path;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The methods each path of the REST API answers, read once from the resources' own annotations: a 405
 * must name them in its {@code Allow} header (RFC 9110 §15.5.6), which Quarkus REST sends without one.
 * A path parameter stands for any one segment: the API's parameters carry no patterns.
 */
@Singleton
public class RouteMethods {

    /** Every route: its path template split into segments, and its HTTP method. */
    private record Route(List<String> template, String method) {

        boolean matches(List<String> path) {
            if (path.size() != template.size()) {
                return false;
            }
            for (int i = 0; i < path.size(); i++) {
                String segment = template.get(i);
                boolean parameter = segment.startsWith("{") && segment.endsWith("}");
                if (!parameter && !segment.equals(path.get(i))) {
                    return false;
                }
            }
            return true;
        }
    }

    private final List<Route> routes;

    public RouteMethods(BeanManager beans) {
        List<Route> all = new ArrayList<>();
        for (Bean<?> bean : beans.getBeans(Object.class, Any.Literal.INSTANCE)) {
            Path base = bean.getBeanClass().getAnnotation(Path.class);
            if (base != null) {
                all.addAll(routesOf(bean.getBeanClass(), base.value()));
            }
        }
        this.routes = List.copyOf(all);
    }

    /**
     * What {@code rawPath} (as the request sent it, percent-encoded: an encoded slash stays inside its
     * segment, as the router saw it) answers: its methods, HEAD where it
     * answers GET, and OPTIONS, which Quarkus REST answers on every path of a resource. Empty when no
     * route has that path.
     */
    public Set<String> allowed(String rawPath) {
        List<String> segments =
                segments(rawPath).stream().map(RouteMethods::decoded).toList();
        Set<String> allowed = new TreeSet<>();
        for (Route route : routes) {
            if (route.matches(segments)) {
                allowed.add(route.method());
            }
        }
        if (allowed.isEmpty()) {
            return allowed;
        }
        if (allowed.contains(HttpMethod.GET)) {
            allowed.add(HttpMethod.HEAD);
        }
        allowed.add(HttpMethod.OPTIONS);
        return allowed;
    }

    private static List<Route> routesOf(Class<?> resource, String base) {
        List<Route> routes = new ArrayList<>();
        for (Method method : resource.getMethods()) {
            String verb = httpMethod(method);
            if (verb != null) {
                Path own = method.getAnnotation(Path.class);
                List<String> template = new ArrayList<>(segments(base));
                if (own != null) {
                    template.addAll(segments(own.value()));
                }
                routes.add(new Route(List.copyOf(template), verb));
            }
        }
        return routes;
    }

    private static String httpMethod(Method method) {
        for (Annotation annotation : method.getAnnotations()) {
            HttpMethod verb = annotation.annotationType().getAnnotation(HttpMethod.class);
            if (verb != null) {
                return verb.value();
            }
        }
        return null;
    }

    /** A segment of a request's path as the router matches it: without matrix parameters, decoded. */
    private static String decoded(String rawSegment) {
        String segment = rawSegment.split(";", 2)[0];
        // URLDecoder reads '+' as a space, which is a form's rule, not a path's.
        return URLDecoder.decode(segment.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    private static List<String> segments(String path) {
        return Arrays.stream(path.split("/"))
                .filter(segment -> !segment.isEmpty())
                .toList();
    }
}
