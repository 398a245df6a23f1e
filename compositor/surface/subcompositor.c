/* SPDX-License-Identifier: MIT */
/*
 * subcompositor.c - wl_subcompositor and wl_subsurface.
 *
 * A subsurface is a wl_surface drawn at an offset from its parent and
 * stacked with it: the client composes one window from several surfaces
 * (foot's terminal grid and its decorations, a video over its controls)
 * and the compositor draws them together.
 *
 * Two kinds of state wait for the parent. The position and the stacking
 * order (set_position, place_above, place_below, and a new subsurface
 * joining the stack) are the parent's state: kept here as pending, taken
 * by the parent's next commit (its commit_signal), and applied when that
 * commit of the parent is applied, whatever the mode: at once for a main
 * surface or a desynchronized parent, with its cached state for a
 * synchronized one. So a grandchild's new position waits for its own
 * parent's commit and then for that commit to apply; the main surface's
 * commit alone does not move it. The subsurface's own wl_surface state
 * waits too in synchronized mode (the default): surface-request.c asks
 * role_cache() on every commit and keeps the commit in a cache, which
 * the parent's apply_signal lets us apply right after the parent's. A
 * desynchronized subsurface's commit applies at once, unless an ancestor
 * is synchronized: then it waits as well.
 *
 * The scene gets none of this as Wayland objects: each subsurface's view
 * becomes a child view of the parent's, with an offset and a place in
 * the parent's stack (scene.h).
 */
#include <stdlib.h>

#include <wayland-server-core.h>
#include <wayland-server-protocol.h>

#include "surface-impl.h"

/* wayland 1.22 names this error; Debian 12's 1.21 headers predate it. */
#ifndef WL_SUBCOMPOSITOR_ERROR_BAD_PARENT
#define WL_SUBCOMPOSITOR_ERROR_BAD_PARENT 1
#endif

/*
 * How deep subsurfaces may nest (a main surface is level 0). Applying a
 * parent applies its synchronized children from its apply_signal, so the
 * stack the compositor needs grows with the depth; a client must not be
 * able to choose it. Real clients nest one or two levels.
 */
#define MAX_DEPTH 32

/* What we keep for a wl_surface that has subsurfaces. */
struct parent {
	struct wlseal_surface *surface;
	/* The pending stacking order, bottom first: subsurface.link and
	 * self, the parent's own place. The parent's commit copies it to
	 * the committed order (subsurface.committed_link and
	 * committed_self), which becomes the scene's order when that
	 * commit is applied. */
	struct wl_list stack;
	struct wl_list self;
	bool stack_changed;
	struct wl_list committed;
	struct wl_list committed_self;
	bool committed_changed;
	struct wl_listener commit;	/* surface->commit_signal */
	struct wl_listener apply;	/* surface->apply_signal */
	struct wl_listener destroy;	/* surface->destroy_signal */
};

struct subsurface {
	struct wl_resource *resource;
	struct wlseal_surface *surface;	/* NULL: its wl_surface is gone */
	struct parent *parent;		/* NULL: inert, no parent any more */
	struct wl_listener surface_destroy;
	struct wl_list link;		/* parent->stack */
	struct wl_list committed_link;	/* parent->committed */
	int32_t x, y;			/* pending position */
	int32_t cx, cy;			/* taken by the parent's last commit */
	bool in_scene;			/* a child view of the parent's */
	bool sync;
	struct wlseal_account *account;	/* account/objects.c */
};

static void subsurface_role_commit(struct wlseal_surface *s);

static struct subsurface *subsurface_of(struct wlseal_surface *s)
{
	return s->role_commit == subsurface_role_commit ? s->role : NULL;
}

/* The subsurface above @sub in the tree, if @sub's parent is one. */
static struct subsurface *parent_subsurface(struct subsurface *sub)
{
	return sub->parent ? subsurface_of(sub->parent->surface) : NULL;
}

/* Synchronized itself, or below a synchronized ancestor. */
static bool synchronized(struct subsurface *sub)
{
	for (; sub && sub->parent; sub = parent_subsurface(sub))
		if (sub->sync)
			return true;
	return false;
}

static bool subsurface_role_cache(struct wlseal_surface *s)
{
	return synchronized(s->role);
}

/* After the subsurface's own state was applied: a buffer maps it, no
 * buffer hides it; the scene shows it only while the parent shows. */
static void subsurface_role_commit(struct wlseal_surface *s)
{
	struct subsurface *sub = s->role;
	struct wlseal_scene *scene = &s->server->scene;

	if (!sub->in_scene)
		return;
	if (s->has_content && !s->view.mapped)
		wlseal_scene_map(scene, &s->view);
	else if (!s->has_content && s->view.mapped)
		wlseal_scene_unmap(scene, &s->view);
}

static void parent_destroyed(struct wl_listener *listener, void *data);

static struct parent *parent_get(struct wlseal_surface *s)
{
	struct wl_listener *l = wl_signal_get(&s->destroy_signal,
					      parent_destroyed);
	struct parent *p;

	return l ? wl_container_of(l, p, destroy) : NULL;
}

/* The parent commits: the pending positions and order become the
 * committed ones, to be applied with this commit. O(children), as the
 * apply below. */
static void parent_committed(struct wl_listener *listener, void *data)
{
	struct parent *p = wl_container_of(listener, p, commit);
	struct subsurface *sub;

	wl_list_for_each(sub, &p->stack, link) {
		if (&sub->link == &p->self)
			continue;
		sub->cx = sub->x;
		sub->cy = sub->y;
	}
	if (!p->stack_changed)
		return;
	/* Each entry moved to the end of the committed list in the
	 * pending order: that list is the pending one now. */
	wl_list_for_each(sub, &p->stack, link) {
		struct wl_list *cl = &sub->link == &p->self ? &p->committed_self
							    : &sub->committed_link;

		wl_list_remove(cl);
		wl_list_insert(p->committed.prev, cl);
	}
	p->stack_changed = false;
	p->committed_changed = true;
}

/* The committed order becomes the scene's. Each child is placed
 * against its neighbour towards the parent, so an unchanged order moves
 * nothing (the scene damages only what moves). O(children), bounded by
 * the client's subsurface budget (account/objects.c). */
static void apply_stack(struct parent *p)
{
	struct wlseal_scene *scene = &p->surface->server->scene;
	struct wlseal_scene_view *ref;
	struct subsurface *sub;
	struct wl_list *l;

	wl_list_for_each(sub, &p->committed, committed_link) {
		if (&sub->committed_link == &p->committed_self || sub->in_scene)
			continue;
		wlseal_scene_add_child(scene, &p->surface->view,
				       &sub->surface->view);
		sub->in_scene = true;
	}
	ref = &p->surface->view;
	for (l = p->committed_self.next; l != &p->committed; l = l->next) {
		sub = wl_container_of(l, sub, committed_link);
		wlseal_scene_place(scene, &sub->surface->view, ref, true);
		ref = &sub->surface->view;
	}
	ref = &p->surface->view;
	for (l = p->committed_self.prev; l != &p->committed; l = l->prev) {
		sub = wl_container_of(l, sub, committed_link);
		wlseal_scene_place(scene, &sub->surface->view, ref, false);
		ref = &sub->surface->view;
	}
	p->committed_changed = false;
}

/* The parent's state was applied: now what waited for it. The walk
 * visits every child, and in a synchronized tree every descendant (at
 * most MAX_DEPTH levels of recursion): O(the client's subsurfaces),
 * which the subsurface budget bounds (account/objects.c: at the default
 * 1024, about 8 us a commit; 160 us at 10,000 without it). */
static void parent_applied(struct wl_listener *listener, void *data)
{
	struct parent *p = wl_container_of(listener, p, apply);
	struct wlseal_scene *scene = &p->surface->server->scene;
	struct subsurface *sub;

	if (p->committed_changed)
		apply_stack(p);
	/* The children the parent's commits brought in so far; one that
	 * joined since waits for the next. */
	wl_list_for_each(sub, &p->committed, committed_link) {
		struct wlseal_surface *s;

		if (&sub->committed_link == &p->committed_self)
			continue;
		s = sub->surface;
		wlseal_scene_move(scene, &s->view, sub->cx, sub->cy);
		/* A child that committed before it joined the scene. */
		subsurface_role_commit(s);
		if (!synchronized(sub))
			continue;
		/* Synchronized all the way down: a child with nothing
		 * cached still passes the apply on to its own children, so
		 * that one commit of the main surface updates the tree. */
		if (s->has_cached) {
			wlseal_surface_apply_cached(s);
		} else {
			struct parent *cp = parent_get(s);

			if (cp)
				parent_applied(&cp->apply, s);
		}
	}
}

/* @sub leaves its parent (and the scene) now. */
static void subsurface_unlink(struct subsurface *sub)
{
	if (!sub->parent)
		return;
	if (sub->in_scene) {
		wlseal_scene_remove_child(&sub->surface->server->scene,
					  &sub->surface->view);
		wlseal_scene_request_frame(&sub->surface->server->scene);
	}
	sub->in_scene = false;
	wl_list_remove(&sub->link);
	wl_list_init(&sub->link);
	wl_list_remove(&sub->committed_link);
	wl_list_init(&sub->committed_link);
	sub->parent = NULL;
}

/* The parent is gone: its subsurfaces are unmapped and stay inert. */
static void parent_destroyed(struct wl_listener *listener, void *data)
{
	struct parent *p = wl_container_of(listener, p, destroy);
	struct subsurface *sub, *tmp;

	wl_list_for_each_safe(sub, tmp, &p->stack, link)
		if (&sub->link != &p->self)
			subsurface_unlink(sub);
	wl_list_remove(&p->commit.link);
	wl_list_remove(&p->apply.link);
	wl_list_remove(&p->destroy.link);
	free(p);
}

static struct parent *parent_create(struct wlseal_surface *s)
{
	struct parent *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->surface = s;
	wl_list_init(&p->stack);
	wl_list_insert(&p->stack, &p->self);
	wl_list_init(&p->committed);
	wl_list_insert(&p->committed, &p->committed_self);
	p->commit.notify = parent_committed;
	wl_signal_add(&s->commit_signal, &p->commit);
	p->apply.notify = parent_applied;
	wl_signal_add(&s->apply_signal, &p->apply);
	p->destroy.notify = parent_destroyed;
	wl_signal_add(&s->destroy_signal, &p->destroy);
	return p;
}

/* The wl_surface loses the role: it is unmapped at once. */
static void subsurface_detach(struct subsurface *sub)
{
	struct wlseal_surface *s = sub->surface;

	subsurface_unlink(sub);
	if (!s)
		return;
	s->role_commit = NULL;
	s->role_cache = NULL;
	s->role = NULL;
	wl_list_remove(&sub->surface_destroy.link);
	sub->surface = NULL;
}

static void subsurface_surface_destroyed(struct wl_listener *l, void *data)
{
	struct subsurface *sub = wl_container_of(l, sub, surface_destroy);

	subsurface_detach(sub);
}

/* wl_subsurface */

static void subsurface_destroy(struct wl_client *c, struct wl_resource *r)
{
	wl_resource_destroy(r);
}

static void subsurface_resource_destroy(struct wl_resource *r)
{
	struct subsurface *sub = wl_resource_get_user_data(r);

	subsurface_detach(sub);
	wlseal_budget_put(sub->account, WLSEAL_BUDGET_SUBSURFACES);
	free(sub);
}

static void subsurface_set_position(struct wl_client *c,
				    struct wl_resource *r, int32_t x, int32_t y)
{
	struct subsurface *sub = wl_resource_get_user_data(r);

	/* Taken by the parent's next commit, in effect once that commit
	 * is applied. */
	sub->x = x;
	sub->y = y;
}

static void subsurface_place(struct wl_resource *r,
			     struct wl_resource *sibling, bool above)
{
	struct subsurface *sub = wl_resource_get_user_data(r);
	struct wlseal_surface *ref = wlseal_surface_from_resource(sibling);
	struct subsurface *ref_sub = subsurface_of(ref);
	struct wl_list *ref_link;

	if (!sub->parent)
		return;		/* inert */
	/* O(1): the sibling is found through its role, not searched for;
	 * the new order reaches the scene with the parent's next apply. */
	if (ref == sub->parent->surface) {
		ref_link = &sub->parent->self;
	} else if (ref_sub && ref_sub != sub &&
		   ref_sub->parent == sub->parent) {
		ref_link = &ref_sub->link;
	} else {
		wl_resource_post_error(r, WL_SUBSURFACE_ERROR_BAD_SURFACE,
				       "wl_surface@%u is neither a sibling nor the parent",
				       wl_resource_get_id(sibling));
		return;
	}
	wl_list_remove(&sub->link);
	wl_list_insert(above ? ref_link : ref_link->prev, &sub->link);
	sub->parent->stack_changed = true;
}

static void subsurface_place_above(struct wl_client *c, struct wl_resource *r,
				   struct wl_resource *sibling)
{
	subsurface_place(r, sibling, true);
}

static void subsurface_place_below(struct wl_client *c, struct wl_resource *r,
				   struct wl_resource *sibling)
{
	subsurface_place(r, sibling, false);
}

static void subsurface_set_sync(struct wl_client *c, struct wl_resource *r)
{
	struct subsurface *sub = wl_resource_get_user_data(r);

	sub->sync = true;
}

static void subsurface_set_desync(struct wl_client *c, struct wl_resource *r)
{
	struct subsurface *sub = wl_resource_get_user_data(r);
	bool was = synchronized(sub);

	sub->sync = false;
	/* Free running now (no synchronized ancestor): what was cached
	 * goes out at once. */
	if (was && !synchronized(sub) && sub->surface)
		wlseal_surface_apply_cached(sub->surface);
}

static const struct wl_subsurface_interface subsurface_impl = {
	.destroy = subsurface_destroy,
	.set_position = subsurface_set_position,
	.place_above = subsurface_place_above,
	.place_below = subsurface_place_below,
	.set_sync = subsurface_set_sync,
	.set_desync = subsurface_set_desync,
};

/* How many levels of subsurfaces hang below @s (0: none). Recursion is
 * bounded: every tree was built under MAX_DEPTH; the walk visits @s's
 * tree once, at most the client's subsurface budget (account/objects.c). */
static int tree_height(struct wlseal_surface *s)
{
	struct parent *p = parent_get(s);
	struct subsurface *sub;
	int h = 0;

	if (!p)
		return 0;
	wl_list_for_each(sub, &p->stack, link) {
		int sh;

		if (&sub->link == &p->self)
			continue;
		sh = 1 + tree_height(sub->surface);
		if (sh > h)
			h = sh;
	}
	return h;
}

/* wl_subcompositor */

static void subcompositor_destroy(struct wl_client *c, struct wl_resource *r)
{
	wl_resource_destroy(r);
}

/* Refuses what would make @s a subsurface of @parent with a protocol
 * error: another role, itself or a descendant as parent, too deep. */
static bool subsurface_allowed(struct wl_resource *r, struct wlseal_surface *s,
			       struct wlseal_surface *parent)
{
	struct wlseal_surface *a = parent;
	int level = 0;

	if (s->role) {
		wl_resource_post_error(r, WL_SUBCOMPOSITOR_ERROR_BAD_SURFACE,
				       "wl_surface@%u already has a role",
				       wl_resource_get_id(s->resource));
		return false;
	}
	/* Up from the parent to its main surface: @s must not be met. */
	while (a) {
		struct subsurface *as = subsurface_of(a);

		if (a == s) {
			wl_resource_post_error(r, WL_SUBCOMPOSITOR_ERROR_BAD_PARENT,
					       "wl_surface@%u cannot be a parent of itself "
					       "or of its ancestor",
					       wl_resource_get_id(s->resource));
			return false;
		}
		if (!as || !as->parent)
			break;
		a = as->parent->surface;
		level++;
	}
	/* @parent is at @level below its main surface. */
	if (level + 1 + tree_height(s) > MAX_DEPTH) {
		wl_client_post_implementation_error(wl_resource_get_client(r),
			"wlseal nests subsurfaces at most %d levels deep",
			MAX_DEPTH);
		return false;
	}
	return true;
}

static void subcompositor_get_subsurface(struct wl_client *client,
					 struct wl_resource *r, uint32_t id,
					 struct wl_resource *surface_resource,
					 struct wl_resource *parent_resource)
{
	struct wlseal_surface *s = wlseal_surface_from_resource(surface_resource);
	struct wlseal_surface *ps = wlseal_surface_from_resource(parent_resource);
	struct wlseal_account *account;
	struct parent *p;
	struct subsurface *sub;

	if (!subsurface_allowed(r, s, ps))
		return;
	/* Every commit of a parent walks its children, and of a
	 * synchronized tree all of it: the count is budgeted
	 * (account/objects.c), which bounds the work of one commit. */
	account = wlseal_budget_take(client,
				     WLSEAL_BUDGET_SUBSURFACES);
	if (!account)
		return;
	p = parent_get(ps);
	if (!p)
		p = parent_create(ps);
	sub = calloc(1, sizeof(*sub));
	if (p && sub)
		sub->resource = wl_resource_create(client,
						   &wl_subsurface_interface,
						   wl_resource_get_version(r), id);
	if (!p || !sub || !sub->resource) {
		free(sub);
		wlseal_budget_put(account, WLSEAL_BUDGET_SUBSURFACES);
		wl_client_post_no_memory(client);
		return;
	}
	sub->account = account;
	sub->surface = s;
	sub->parent = p;
	sub->sync = true;	/* the initial mode */
	/* On top of its siblings and the parent, once the parent's
	 * commit is applied. */
	wl_list_insert(p->stack.prev, &sub->link);
	wl_list_init(&sub->committed_link);
	p->stack_changed = true;
	s->role = sub;
	s->role_commit = subsurface_role_commit;
	s->role_cache = subsurface_role_cache;
	sub->surface_destroy.notify = subsurface_surface_destroyed;
	wl_signal_add(&s->destroy_signal, &sub->surface_destroy);
	wl_resource_set_implementation(sub->resource, &subsurface_impl, sub,
				       subsurface_resource_destroy);
}

static const struct wl_subcompositor_interface subcompositor_impl = {
	.destroy = subcompositor_destroy,
	.get_subsurface = subcompositor_get_subsurface,
};

static void subcompositor_bind(struct wl_client *client, void *data,
			       uint32_t version, uint32_t id)
{
	struct wl_resource *r;

	r = wl_resource_create(client, &wl_subcompositor_interface, version, id);
	if (!r) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(r, &subcompositor_impl, data, NULL);
}

bool wlseal_subcompositor_init(struct wlseal_server *server, uint32_t version)
{
	return wl_global_create(server->display, &wl_subcompositor_interface, version,
				server, subcompositor_bind) != NULL;
}
