/* SPDX-License-Identifier: MIT */
/*
 * test-text-input - zwp_text_input_manager_v3 against a headless
 * compositor whose input is a FIFO (--input): enter and leave follow
 * the keyboard focus (a new window, another client's, a click), done
 * carries the count of commits (those made without the focus count too
 * and get no done), the state is applied at commit (the compositor's
 * --verbose line), a second text input's enable is ignored while one
 * is enabled, a focused surface destroyed gets no leave and the next
 * focus gets enter.
 *
 * Usage: test-text-input TEST (TAP output).
 */
#include <linux/input.h>
#include <stdio.h>
#include <string.h>

#include "input-client.h"

/* The log of a text input: "ti<tag>-enter A", "ti<tag>-done 3". */
struct ti {
	struct sc *sc;			/* whose named surfaces */
	char tag;
	struct zwp_text_input_v3 *obj;
	uint32_t commits;
};

static void ti_enter(void *data, struct zwp_text_input_v3 *t,
		     struct wl_surface *s)
{
	struct ti *ti = data;

	note(ti->sc, "ti%c-enter %s", ti->tag, surface_name(ti->sc, s));
}

static void ti_leave(void *data, struct zwp_text_input_v3 *t,
		     struct wl_surface *s)
{
	struct ti *ti = data;

	note(ti->sc, "ti%c-leave %s", ti->tag, surface_name(ti->sc, s));
}

static void ti_preedit(void *data, struct zwp_text_input_v3 *t,
		       const char *text, int32_t b, int32_t e)
{
	struct ti *ti = data;

	note(ti->sc, "ti%c-preedit", ti->tag);
}

static void ti_commit_string(void *data, struct zwp_text_input_v3 *t,
			     const char *text)
{
	struct ti *ti = data;

	note(ti->sc, "ti%c-commit-string", ti->tag);
}

static void ti_delete(void *data, struct zwp_text_input_v3 *t, uint32_t b,
		      uint32_t a)
{
	struct ti *ti = data;

	note(ti->sc, "ti%c-delete", ti->tag);
}

static void ti_done(void *data, struct zwp_text_input_v3 *t, uint32_t serial)
{
	struct ti *ti = data;

	note(ti->sc, "ti%c-done %u", ti->tag, serial);
}

static const struct zwp_text_input_v3_listener ti_listener = {
	.enter = ti_enter, .leave = ti_leave, .preedit_string = ti_preedit,
	.commit_string = ti_commit_string,
	.delete_surrounding_text = ti_delete, .done = ti_done,
};

static void ti_make(struct ti *ti, struct sc *sc, struct input_globals *g,
		    char tag)
{
	ti->sc = sc;
	ti->tag = tag;
	ti->commits = 0;
	ti->obj = zwp_text_input_manager_v3_get_text_input(g->text_input,
							   g->seat);
	zwp_text_input_v3_add_listener(ti->obj, &ti_listener, ti);
}

static void ti_commit(struct ti *ti)
{
	zwp_text_input_v3_commit(ti->obj);
	ti->commits++;
}

/* The compositor's --verbose line for text input @id's commit @n. */
static void expect_applied(struct sc *sc, struct zwp_text_input_v3 *ti,
			   uint32_t n, const char *state)
{
	char needle[96], line[512];

	snprintf(needle, sizeof(needle), "zwp_text_input_v3@%u commit %u: ",
		 wl_proxy_get_id((struct wl_proxy *)ti), n);
	if (!proc_wait(&sc->t.c.p, &sc->t.log_from, needle, TIMEOUT_MS, line,
		       sizeof(line)))
		fail("no '%s' line", needle);
	check(strstr(line, state) != NULL, "commit %u applied '%s' (%s)", n,
	      state, strstr(line, needle) + strlen(needle));
}

/*
 * Text input: enter with the keyboard focus, also for a text input made
 * while the client has it; done with the commit count; state applied at
 * commit; leave and enter as the focus moves between windows and
 * clients; commits without the focus counted, unanswered; one enabled
 * text input a seat.
 */
static void test_text_input(void)
{
	static struct sc sc, other;
	struct ti t1, t2, to;
	struct input_globals g, og;
	struct win a, b, c;
	int ax, ay, bx, by, cx, cy;
	size_t mark;

	sc_start(&sc, 7);
	sc_keyboard(&sc);
	sc_pointer(&sc);
	g = input_globals(sc.t.display);
	ti_make(&t1, &sc, &g, '1');
	sc_sync(&sc);
	none_since(&sc, 0, "ti1", "no enter without the keyboard focus");

	/* A's map gives it the keyboard: the text input follows. */
	sc_window(&sc, &a, 0, 100, RED, &ax, &ay);
	expect(&sc, "kb-enter", "kb-enter A keys");
	expect(&sc, "ti1-enter", "ti1-enter A");
	/* Made while the client has the focus: enter at once. */
	ti_make(&t2, &sc, &g, '2');
	expect(&sc, "ti2-enter", "ti2-enter A");

	/* done counts the commits, each answered. */
	ti_commit(&t1);
	ti_commit(&t1);
	expect(&sc, "ti1-done", "ti1-done 1");
	expect(&sc, "ti1-done", "ti1-done 2");
	expect_applied(&sc, t1.obj, 2, ": disabled surrounding -1 ");

	/* Double-buffered: nothing before the commit. */
	zwp_text_input_v3_enable(t1.obj);
	zwp_text_input_v3_set_surrounding_text(t1.obj, "hello world", 5, 0);
	zwp_text_input_v3_set_text_change_cause(t1.obj,
		ZWP_TEXT_INPUT_V3_CHANGE_CAUSE_OTHER);
	zwp_text_input_v3_set_content_type(t1.obj,
		ZWP_TEXT_INPUT_V3_CONTENT_HINT_SPELLCHECK,
		ZWP_TEXT_INPUT_V3_CONTENT_PURPOSE_EMAIL);
	zwp_text_input_v3_set_cursor_rectangle(t1.obj, 10, 20, 2, 16);
	sc_sync(&sc);
	none_since(&sc, 0, "ti1-done 3", "no done before the commit");
	ti_commit(&t1);
	expect(&sc, "ti1-done", "ti1-done 3");
	expect_applied(&sc, t1.obj, 3,
		       "enabled surrounding 11 bytes cursor 5 anchor 0 cause 1 "
		       "hint 0x2 purpose 6 rectangle 10,20 2x16");
	/* The change cause is reset by the commit, the rest stays. */
	ti_commit(&t1);
	expect(&sc, "ti1-done", "ti1-done 4");
	expect_applied(&sc, t1.obj, 4,
		       "enabled surrounding 11 bytes cursor 5 anchor 0 cause 0 "
		       "hint 0x2 purpose 6");

	/* The other text input's enable is ignored while t1 is enabled. */
	zwp_text_input_v3_enable(t2.obj);
	ti_commit(&t2);
	expect(&sc, "ti2-done", "ti2-done 1");
	expect_applied(&sc, t2.obj, 1, ": disabled ");
	/* t1 disabled, t2 may. */
	zwp_text_input_v3_disable(t1.obj);
	ti_commit(&t1);
	expect(&sc, "ti1-done", "ti1-done 5");
	expect_applied(&sc, t1.obj, 5, ": disabled surrounding -1 ");
	zwp_text_input_v3_enable(t2.obj);
	ti_commit(&t2);
	expect(&sc, "ti2-done", "ti2-done 2");
	expect_applied(&sc, t2.obj, 2, ": enabled ");

	/* A second window of the client takes the keyboard: leave A,
	 * enter B, after the keyboard's. */
	sc_window(&sc, &b, 1, 60, GREEN, &bx, &by);
	expect(&sc, "kb-leave", "kb-leave A");
	expect(&sc, "kb-enter", "kb-enter B keys");
	expect(&sc, "ti1-leave", "ti1-leave A");
	expect(&sc, "ti2-leave", "ti2-leave A");
	expect(&sc, "ti1-enter", "ti1-enter B");
	expect(&sc, "ti2-enter", "ti2-enter B");
	/* Enter reset the state: t2 is no longer enabled. */
	ti_commit(&t2);
	expect(&sc, "ti2-done", "ti2-done 3");
	expect_applied(&sc, t2.obj, 3, ": disabled ");

	/* Another client's window: ours leave; its text input enters. */
	memset(&other, 0, sizeof(other));
	t_connect(&other.t);
	og = input_globals(other.t.display);
	ti_make(&to, &other, &og, 'o');
	win_create(&other.t, &c);
	other.named[2] = c.s;
	win_initial_commit(&c);
	win_draw(&c, 50, 50, BLUE);
	wait_mapped(&sc.t, &cx, &cy, "the other client's window");
	expect(&sc, "ti1-leave", "ti1-leave B");
	expect(&sc, "ti2-leave", "ti2-leave B");
	expect(&other, "tio-enter", "tio-enter C");

	/* Without the focus: commits counted, no done, state ignored. */
	mark = sc.len;
	zwp_text_input_v3_enable(t1.obj);
	ti_commit(&t1);
	ti_commit(&t1);
	sc_sync(&sc);
	none_since(&sc, mark, "ti1-done", "no done without the focus");

	/* A click on A brings the keyboard back: done counts all seven. */
	fifo_move(&sc.f, ax + 5, ay + 5);
	fifo_key(&sc.f, BTN_LEFT, 1);
	fifo_key(&sc.f, BTN_LEFT, 0);
	expect(&other, "tio-leave", "tio-leave C");
	expect(&sc, "ti1-enter", "ti1-enter A");
	expect(&sc, "ti2-enter", "ti2-enter A");
	ti_commit(&t1);
	expect(&sc, "ti1-done", "ti1-done 8");
	expect_applied(&sc, t1.obj, 8, ": disabled ");
	none_since(&sc, 0, "ti1-preedit", "no preedit (no input method)");
	none_since(&sc, 0, "ti1-commit-string", "no commit_string");
	zwp_text_input_v3_destroy(t2.obj);
	zwp_text_input_v3_destroy(t1.obj);
	sc_sync(&sc);
	wl_display_disconnect(other.t.display);
	sc_stop(&sc);
}

/* The focused surface destroyed: its text inputs get no leave for it,
 * and enter with the next focus. */
static void test_text_input_destroyed(void)
{
	static struct sc sc;
	struct input_globals g;
	struct ti t1;
	struct win a, b;
	int ax, ay, bx, by;
	size_t mark;

	sc_start(&sc, 7);
	sc_keyboard(&sc);
	g = input_globals(sc.t.display);
	ti_make(&t1, &sc, &g, '1');
	sc_window(&sc, &a, 0, 100, RED, &ax, &ay);
	expect(&sc, "ti1-enter", "ti1-enter A");
	sc_window(&sc, &b, 1, 60, GREEN, &bx, &by);
	expect(&sc, "ti1-leave", "ti1-leave A");
	expect(&sc, "ti1-enter", "ti1-enter B");
	zwp_text_input_v3_enable(t1.obj);
	ti_commit(&t1);
	expect(&sc, "ti1-done", "ti1-done 1");
	/* The wl_surface first: the keyboard and the text input forget it
	 * without leave; its role unmaps and A gets the focus. */
	mark = sc.len;
	wl_surface_destroy(b.s);
	xdg_toplevel_destroy(b.tl);
	xdg_surface_destroy(b.xs);
	sc.named[1] = NULL;
	expect(&sc, "kb-enter", "kb-enter A keys");
	expect(&sc, "ti1-enter", "ti1-enter A");
	none_since(&sc, mark, "ti1-leave", "no leave for the destroyed surface");
	ti_commit(&t1);
	expect(&sc, "ti1-done", "ti1-done 2");
	expect_applied(&sc, t1.obj, 2, ": disabled ");
	zwp_text_input_v3_destroy(t1.obj);
	sc_stop(&sc);
}

static const struct harness_test tests[] = {
	{ "text-input", test_text_input },
	{ "text-input-destroyed", test_text_input_destroyed },
};

int main(int argc, char **argv)
{
	return harness_main("test-text-input", tests,
			    sizeof(tests) / sizeof(tests[0]), argc, argv);
}
