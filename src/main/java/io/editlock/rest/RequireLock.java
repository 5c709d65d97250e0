package io.editlock.rest;

import io.editlock.catalog.Entity;
import io.editlock.lock.GuardType;
import io.editlock.lock.Page;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares the guard of a REST write (docs/protocol.md §8): which guard, and which path parameter names
 * what. {@link LockGuardFilter} reads it before the handler, resolves the id to its configurator
 * (and item) and hands the guard to the handler; the store runs the guard's check and the write in
 * one script run, so no grant can come between them.
 *
 * <p>On a method it guards that route. On a resource class it guards every write route of the class
 * (POST, PATCH, PUT, DELETE, inherited ones included) that declares no guard of its own; the class's
 * reads stay unguarded. {@link LockGuardFilter#declared} is the rule.
 *
 * <pre>
 * &#64;PATCH &#64;Path("/{id}")
 * &#64;RequireLock(value = GuardType.PAGE, idOf = Entity.FILTER)   // the filter's item, page filters
 * </pre>
 */
@Target({ElementType.METHOD, ElementType.TYPE})
@Retention(RetentionPolicy.RUNTIME)
public @interface RequireLock {

    GuardType value();

    /** What the path parameter's id names. */
    Entity idOf();

    /** The path parameter holding the id. */
    String param() default "id";

    /**
     * The page, for a {@link GuardType#PAGE} guard whose id names an item (a new entry on that
     * page). An entry id names its own page.
     */
    Page[] page() default {};
}
