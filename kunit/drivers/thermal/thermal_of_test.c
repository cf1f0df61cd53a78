// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the thermal device tree parser (thermal_of.c).
 *
 * The device tree is built at run time: thermal_of_test_zones.dts is
 * compiled by the tree's dtc, linked into this test as a blob and
 * applied as an overlay before every case, then removed after it, so
 * each case sees fresh nodes with their initial reference counts.  Two
 * more overlays add a broken zone for the cases that need one.
 *
 * Lifecycle:
 *   suite_init: give the live tree a root if the platform has none
 *   init:       apply the zones overlay, look up the sensor nodes
 *   case:       register zones and cooling devices, check the result
 *   exit:       unregister whatever the case left, remove the overlays
 *
 * Zones come from thermal_of_zone_register() and
 * devm_thermal_of_zone_register() with the test ops below; the sensor
 * temperature stays far below every trip so the core never acts on one.
 *
 * The bad-input cases write their zone as a flattened overlay in C, from
 * a table of named edge cases and from a seeded random batch, and the
 * fault-injection case fails each slab allocation of a registration in
 * turn (current->fail_nth, with failslab's ignore-gfp-wait cleared).
 */

#include <kunit/test.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/fault-inject.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/kernfs.h>
#include <linux/kmemleak.h>
#include <linux/kobject.h>
#include <linux/libfdt.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/of.h>
#include <linux/of_fdt.h>
#include <linux/prandom.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/thermal.h>

#include "thermal_core.h"
#include "thermal_of_test.h"
#include "../of/of_private.h"

/* sensor ids of the zones on sensor-1, see thermal_of_test_zones.dts */
enum {
	TZ_ID1 = 1,
	TZ_FULL = 2,
	TZ_DEFAULTS = 3,
	TZ_NO_TRIPS = 4,
	TZ_EMPTY_TRIPS = 5,
	TZ_NO_TEMP = 6,
	TZ_NO_HYST = 7,
	TZ_BAD_TYPE = 8,
	TZ_BAD_POLL = 9,
	TZ_MAP_NO_TRIP = 10,
	TZ_NEGATIVE = 11,
	/* 12 and 13: TZ_FUZZ and TOF_SENSOR_OTHER_ID's id, below */
	TZ_ONE_CELL = 14,
	TZ_MAP_NO_CDEV = 15,
	TZ_NONE = 99,
};

#define THERMAL_OF_TEST_TEMP	20000	/* millicelsius, below every trip */
#define THERMAL_OF_TEST_MAX_STATE	5

struct thermal_of_test_ctx {
	int ovcs_id;		/* zones overlay */
	int extra_ovcs_id;	/* broken-zone overlay, 0 when not applied */
	struct device_node *sens0;
	struct device_node *sens1;
	struct device_node *sens2;
	struct device_node *cdev0_np;
	struct device_node *cdev1_np;
	struct thermal_zone_device *tz;
	struct thermal_cooling_device *cdev[3];
	struct device *dev;
	int temp;		/* what the sensor reports */
	int criticals;
	int input;		/* of the random batch, -1 outside it */
	bool failslab_set;	/* failslab_saved to be restored */
	bool failslab_saved;
};

/* what one binding looks like, copied out of struct thermal_instance */
struct thermal_of_test_binding {
	int trip_temp;
	unsigned long upper;
	unsigned long lower;
	unsigned int weight;
};

static int thermal_of_test_get_temp(struct thermal_zone_device *tz, int *temp)
{
	struct thermal_of_test_ctx *ctx = tz->devdata;

	*temp = ctx->temp;
	return 0;
}

/* never let the core shut the machine down if a trip is ever crossed */
static void thermal_of_test_critical(struct thermal_zone_device *tz)
{
	struct thermal_of_test_ctx *ctx = tz->devdata;

	ctx->criticals++;
}

static const struct thermal_zone_device_ops thermal_of_test_tz_ops = {
	.get_temp = thermal_of_test_get_temp,
	.critical = thermal_of_test_critical,
};

/* a sensor that cannot be switched on */
static int thermal_of_test_change_mode(struct thermal_zone_device *tz,
				       enum thermal_device_mode mode)
{
	return mode == THERMAL_DEVICE_ENABLED ? -EIO : 0;
}

static const struct thermal_zone_device_ops thermal_of_test_tz_enable_fails_ops = {
	.get_temp = thermal_of_test_get_temp,
	.critical = thermal_of_test_critical,
	.change_mode = thermal_of_test_change_mode,
};

static int thermal_of_test_get_max_state(struct thermal_cooling_device *cdev,
					 unsigned long *state)
{
	*state = THERMAL_OF_TEST_MAX_STATE;
	return 0;
}

static int thermal_of_test_get_cur_state(struct thermal_cooling_device *cdev,
					 unsigned long *state)
{
	*state = 0;
	return 0;
}

static int thermal_of_test_set_cur_state(struct thermal_cooling_device *cdev,
					 unsigned long state)
{
	return 0;
}

static const struct thermal_cooling_device_ops thermal_of_test_cdev_ops = {
	.get_max_state = thermal_of_test_get_max_state,
	.get_cur_state = thermal_of_test_get_cur_state,
	.set_cur_state = thermal_of_test_set_cur_state,
};

/*
 * The overlays' blobs are linked into .dtb.init.rodata, which a built-in
 * test loses with the rest of init memory once the kernel has booted:
 * the suite run again in one boot (mutate --schemata's loop, through
 * /sys/kernel/debug/kconform_kunit) got "Invalid overlay_fdt header".
 * Built in, suite_init copies each at the first run, while it is still
 * there, and the copies stay for the kernel's life, as the root's blob
 * does; a module has its own at every load.
 */
struct thermal_of_test_blob {
	const u8 *begin;
	size_t size;
};

static struct thermal_of_test_blob thermal_of_test_zones, thermal_of_test_nosensor,
	thermal_of_test_badcells;

static int thermal_of_test_keep(struct thermal_of_test_blob *blob,
				const u8 *begin, const u8 *end)
{
	blob->size = end - begin;
	if (IS_MODULE(CONFIG_THERMAL_OF_KUNIT_TEST)) {
		blob->begin = begin;
		return 0;
	}
	if (!blob->begin)
		blob->begin = kmemdup(begin, blob->size, GFP_KERNEL);
	return blob->begin ? 0 : -ENOMEM;
}

static int thermal_of_test_apply(const struct thermal_of_test_blob *blob, int *ovcs_id)
{
	return of_overlay_fdt_apply(blob->begin, blob->size, ovcs_id);
}

/*
 * Look a node up by path.  The reference is dropped at once: the node
 * lives as long as the overlay that created it, and the cases that
 * count references must not see one held by the test.
 */
static struct device_node *thermal_of_test_node(struct kunit *test,
						const char *path)
{
	struct device_node *np = of_find_node_by_path(path);

	KUNIT_ASSERT_NOT_ERR_OR_NULL_MSG(test, np, "no node %s", path);
	of_node_put(np);

	return np;
}

static unsigned int thermal_of_test_refs(struct device_node *np)
{
	return kref_read(&np->kobj.kref);
}

static struct thermal_zone_device *
thermal_of_test_register(struct kunit *test, struct device_node *sensor, int id)
{
	struct thermal_of_test_ctx *ctx = test->priv;
	struct thermal_zone_device *tz;

	tz = thermal_of_zone_register(sensor, id, ctx, &thermal_of_test_tz_ops);
	if (!IS_ERR(tz))
		ctx->tz = tz;

	return tz;
}

static void thermal_of_test_unregister(struct kunit *test)
{
	struct thermal_of_test_ctx *ctx = test->priv;

	if (ctx->tz) {
		thermal_of_zone_unregister(ctx->tz);
		ctx->tz = NULL;
	}
}

static struct thermal_cooling_device *
thermal_of_test_add_cdev(struct kunit *test, int i)
{
	static const char * const paths[] = {
		"/thermal-of-test/cooling-0",
		"/thermal-of-test/cooling-1",
		"/thermal-of-test/cooling-2",
	};
	static const char * const types[] = {
		"thermal-of-test-0",
		"thermal-of-test-1",
		"thermal-of-test-2",
	};
	struct thermal_of_test_ctx *ctx = test->priv;
	struct thermal_cooling_device *cdev;

	cdev = thermal_of_cooling_device_register(thermal_of_test_node(test, paths[i]),
						  types[i], ctx,
						  &thermal_of_test_cdev_ops);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cdev);
	ctx->cdev[i] = cdev;

	return cdev;
}

static void thermal_of_test_del_cdev(struct kunit *test, int i)
{
	struct thermal_of_test_ctx *ctx = test->priv;

	if (ctx->cdev[i]) {
		thermal_cooling_device_unregister(ctx->cdev[i]);
		ctx->cdev[i] = NULL;
	}
}

/*
 * Count the bindings of @cdev in @tz and copy the last one to @out.
 * The zone lock keeps the list stable against the core.
 */
static int thermal_of_test_bindings(struct thermal_zone_device *tz,
				    struct thermal_cooling_device *cdev,
				    struct thermal_of_test_binding *out)
{
	struct thermal_instance *ti;
	int n = 0;

	mutex_lock(&tz->lock);
	list_for_each_entry(ti, &tz->thermal_instances, tz_node) {
		if (ti->cdev != cdev)
			continue;
		n++;
		out->trip_temp = tz->trips[ti->trip].temperature;
		out->upper = ti->upper;
		out->lower = ti->lower;
		out->weight = ti->weight;
	}
	mutex_unlock(&tz->lock);

	return n;
}

/* the trips array is in overlay order, so look a trip up by temperature */
static const struct thermal_trip *
thermal_of_test_trip(struct thermal_zone_device *tz, int temperature)
{
	int i;

	for (i = 0; i < tz->num_trips; i++)
		if (tz->trips[i].temperature == temperature)
			return &tz->trips[i];

	return NULL;
}

/* A zone whose sensor has #thermal-sensor-cells = <0> is found with id 0 */
static void thermal_of_test_zone_by_sensor_cells0(struct kunit *test)
{
	struct thermal_of_test_ctx *ctx = test->priv;
	struct thermal_zone_device *tz;

	tz = thermal_of_test_register(test, ctx->sens0, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tz);
	KUNIT_EXPECT_STREQ(test, tz->type, "tz-cells0");
	KUNIT_EXPECT_PTR_EQ(test, tz->devdata, (void *)ctx);
	KUNIT_EXPECT_EQ(test, tz->num_trips, 1);
}

/* With no sensor cells the specifier id is 0, so any other id misses */
static void thermal_of_test_zone_by_sensor_cells0_other_id(struct kunit *test)
{
	struct thermal_of_test_ctx *ctx = test->priv;

	KUNIT_EXPECT_EQ(test, PTR_ERR(thermal_of_test_register(test, ctx->sens0, 1)),
			-ENODEV);
}

/* With #thermal-sensor-cells = <1> the zone is picked by the id cell */
static void thermal_of_test_zone_by_sensor_id(struct kunit *test)
{
	struct thermal_of_test_ctx *ctx = test->priv;
	struct thermal_zone_device *tz;

	tz = thermal_of_test_register(test, ctx->sens1, TZ_ID1);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tz);
	KUNIT_EXPECT_STREQ(test, tz->type, "tz-id1");
	thermal_of_test_unregister(test);

	tz = thermal_of_test_register(test, ctx->sens1, TZ_DEFAULTS);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tz);
	KUNIT_EXPECT_STREQ(test, tz->type, "tz-defaults");
}

/* No zone for the sensor/id pair is -ENODEV */
static void thermal_of_test_zone_not_found(struct kunit *test)
{
	struct thermal_of_test_ctx *ctx = test->priv;

	KUNIT_EXPECT_EQ(test, PTR_ERR(thermal_of_test_register(test, ctx->sens1, TZ_NONE)),
			-ENODEV);
	KUNIT_EXPECT_EQ(test, PTR_ERR(thermal_of_test_register(test, ctx->sens2, 0)),
			-ENODEV);
}

/* A zone without "thermal-sensors" makes the lookup fail with -EINVAL */
static void thermal_of_test_zone_without_sensors(struct kunit *test)
{
	struct thermal_of_test_ctx *ctx = test->priv;

	KUNIT_ASSERT_EQ(test, thermal_of_test_apply(&thermal_of_test_nosensor,
						    &ctx->extra_ovcs_id), 0);

	KUNIT_EXPECT_EQ(test, PTR_ERR(thermal_of_test_register(test, ctx->sens1, TZ_NONE)),
			-EINVAL);
}

/* A sensor without #thermal-sensor-cells makes the lookup fail with -EINVAL */
static void thermal_of_test_zone_bad_sensor_cells(struct kunit *test)
{
	struct thermal_of_test_ctx *ctx = test->priv;

	KUNIT_ASSERT_EQ(test, thermal_of_test_apply(&thermal_of_test_badcells,
						    &ctx->extra_ovcs_id), 0);

	KUNIT_EXPECT_EQ(test, PTR_ERR(thermal_of_test_register(test, ctx->sens1, TZ_NONE)),
			-EINVAL);
}

/* Each of the four trip types is parsed with its temperature and hysteresis */
static void thermal_of_test_trip_types(struct kunit *test)
{
	static const struct {
		int temperature;
		int hysteresis;
		enum thermal_trip_type type;
	} want[] = {
		{ 40000, 1000, THERMAL_TRIP_ACTIVE },
		{ 50000, 2000, THERMAL_TRIP_PASSIVE },
		{ 60000, 500, THERMAL_TRIP_HOT },	/* spelled "Hot" */
		{ 70000, 0, THERMAL_TRIP_CRITICAL },
	};
	struct thermal_of_test_ctx *ctx = test->priv;
	struct thermal_zone_device *tz;
	int i;

	tz = thermal_of_test_register(test, ctx->sens1, TZ_FULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tz);
	KUNIT_ASSERT_EQ(test, tz->num_trips, (int)ARRAY_SIZE(want));

	for (i = 0; i < ARRAY_SIZE(want); i++) {
		const struct thermal_trip *trip = thermal_of_test_trip(tz, want[i].temperature);

		KUNIT_ASSERT_NOT_NULL_MSG(test, trip, "no trip at %d", want[i].temperature);
		KUNIT_EXPECT_EQ(test, trip->hysteresis, want[i].hysteresis);
		KUNIT_EXPECT_EQ(test, trip->type, want[i].type);
	}
}

/* The trip ops installed by thermal_of read the parsed table */
static void thermal_of_test_trip_ops(struct kunit *test)
{
	struct thermal_of_test_ctx *ctx = test->priv;
	struct thermal_zone_device *tz;
	enum thermal_trip_type type;
	int i, val;

	tz = thermal_of_test_register(test, ctx->sens1, TZ_FULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tz);

	for (i = 0; i < tz->num_trips; i++) {
		KUNIT_EXPECT_EQ(test, tz->ops->get_trip_temp(tz, i, &val), 0);
		KUNIT_EXPECT_EQ(test, val, tz->trips[i].temperature);
		KUNIT_EXPECT_EQ(test, tz->ops->get_trip_hyst(tz, i, &val), 0);
		KUNIT_EXPECT_EQ(test, val, tz->trips[i].hysteresis);
		KUNIT_EXPECT_EQ(test, tz->ops->get_trip_type(tz, i, &type), 0);
		KUNIT_EXPECT_EQ(test, type, tz->trips[i].type);
	}
	KUNIT_EXPECT_EQ(test, tz->ops->get_trip_temp(tz, tz->num_trips, &val), -EDOM);
	KUNIT_EXPECT_EQ(test, tz->ops->get_trip_temp(tz, -1, &val), -EDOM);
}

/*
 * The modes of a DT zone's trip attributes in sysfs, the files a thermal
 * daemon writes. 6.1.192's thermal_of gives every zone
 * of_thermal_set_trip_hyst, so trip_point_N_hyst is 0644, and
 * trip_point_N_temp is 0444 (0644 with CONFIG_THERMAL_WRITABLE_TRIPS:
 * thermal_of's mask has every trip). Since 6.10 it is the other way
 * round: 46f5bef8ec2e ("thermal: core: Drop the .set_trip_hyst() thermal
 * zone operation") leaves hyst writable only with THERMAL_TRIP_FLAG_RW_HYST,
 * which thermal_of never sets (0444), and 83c2d444ed9d ("thermal: of: Set
 * THERMAL_TRIP_FLAG_RW_TEMP directly") makes every temp 0644. Only the
 * 6.1 side runs: the suite does not build on 6.12 (suites.toml).
 */
static void thermal_of_test_trip_attr_modes(struct kunit *test)
{
	int temp_mode = IS_ENABLED(CONFIG_THERMAL_WRITABLE_TRIPS) ? 0644 : 0444;
	struct thermal_of_test_ctx *ctx = test->priv;
	char name[THERMAL_NAME_LENGTH];
	struct thermal_zone_device *tz;
	struct kernfs_node *kn;
	int i;

	tz = thermal_of_test_register(test, ctx->sens1, TZ_FULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tz);
	KUNIT_ASSERT_EQ(test, tz->num_trips, 4);

	for (i = 0; i < tz->num_trips; i++) {
		snprintf(name, sizeof(name), "trip_point_%d_temp", i);
		kn = sysfs_get_dirent(tz->device.kobj.sd, name);
		KUNIT_ASSERT_NOT_NULL_MSG(test, kn, "no %s", name);
		KUNIT_EXPECT_EQ_MSG(test, (int)(kn->mode & 0777), temp_mode, "%s", name);
		kernfs_put(kn);

		snprintf(name, sizeof(name), "trip_point_%d_hyst", i);
		kn = sysfs_get_dirent(tz->device.kobj.sd, name);
		KUNIT_ASSERT_NOT_NULL_MSG(test, kn, "no %s", name);
		KUNIT_EXPECT_EQ_MSG(test, (int)(kn->mode & 0777), 0644, "%s", name);
		kernfs_put(kn);
	}
}

/* A negative temperature cell comes through as a negative int */
static void thermal_of_test_trip_negative_temperature(struct kunit *test)
{
	struct thermal_of_test_ctx *ctx = test->priv;
	struct thermal_zone_device *tz;

	tz = thermal_of_test_register(test, ctx->sens1, TZ_NEGATIVE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tz);
	KUNIT_ASSERT_EQ(test, tz->num_trips, 1);
	KUNIT_EXPECT_EQ(test, tz->trips[0].temperature, -10000);
}

/* A trip without "temperature" is rejected */
static void thermal_of_test_trip_requires_temperature(struct kunit *test)
{
	struct thermal_of_test_ctx *ctx = test->priv;

	KUNIT_EXPECT_EQ(test, PTR_ERR(thermal_of_test_register(test, ctx->sens1, TZ_NO_TEMP)),
			-EINVAL);
}

/* A trip without "hysteresis" is rejected */
static void thermal_of_test_trip_requires_hysteresis(struct kunit *test)
{
	struct thermal_of_test_ctx *ctx = test->priv;

	KUNIT_EXPECT_EQ(test, PTR_ERR(thermal_of_test_register(test, ctx->sens1, TZ_NO_HYST)),
			-EINVAL);
}

/* An unknown trip type is rejected with -ENODEV */
static void thermal_of_test_trip_bad_type(struct kunit *test)
{
	struct thermal_of_test_ctx *ctx = test->priv;

	KUNIT_EXPECT_EQ(test, PTR_ERR(thermal_of_test_register(test, ctx->sens1, TZ_BAD_TYPE)),
			-ENODEV);
}

/* get_crit_temp reports the critical trip, or -EINVAL without one */
static void thermal_of_test_crit_temp(struct kunit *test)
{
	struct thermal_of_test_ctx *ctx = test->priv;
	struct thermal_zone_device *tz;
	int temp = 0;

	tz = thermal_of_test_register(test, ctx->sens1, TZ_FULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tz);
	KUNIT_EXPECT_EQ(test, tz->ops->get_crit_temp(tz, &temp), 0);
	KUNIT_EXPECT_EQ(test, temp, 70000);
	thermal_of_test_unregister(test);

	tz = thermal_of_test_register(test, ctx->sens1, TZ_ID1);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tz);
	KUNIT_EXPECT_EQ(test, tz->ops->get_crit_temp(tz, &temp), -EINVAL);
}

/*
 * Regression test for the writable-trips mask of a zone without a
 * "trips" node: it must register, with no trip points.
 */
static void thermal_of_test_zone_without_trips(struct kunit *test)
{
	struct thermal_of_test_ctx *ctx = test->priv;
	struct thermal_zone_device *tz;

	tz = thermal_of_test_register(test, ctx->sens1, TZ_NO_TRIPS);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tz);
	KUNIT_EXPECT_STREQ(test, tz->type, "tz-no-trips");
	KUNIT_EXPECT_EQ(test, tz->num_trips, 0);
	KUNIT_EXPECT_NULL(test, tz->trips);
}

/* "polling-delay-passive" and "polling-delay" set the two delays */
static void thermal_of_test_polling_delays(struct kunit *test)
{
	struct thermal_of_test_ctx *ctx = test->priv;
	struct thermal_zone_device *tz;

	tz = thermal_of_test_register(test, ctx->sens1, TZ_FULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tz);
	KUNIT_EXPECT_EQ(test, tz->passive_delay_jiffies, msecs_to_jiffies(250));
	KUNIT_EXPECT_EQ(test, tz->polling_delay_jiffies, msecs_to_jiffies(500));
}

/* Absent delays mean 0, i.e. an interrupt driven zone */
static void thermal_of_test_polling_delays_default(struct kunit *test)
{
	struct thermal_of_test_ctx *ctx = test->priv;
	struct thermal_zone_device *tz;

	tz = thermal_of_test_register(test, ctx->sens1, TZ_DEFAULTS);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tz);
	KUNIT_EXPECT_EQ(test, tz->passive_delay_jiffies, 0UL);
	KUNIT_EXPECT_EQ(test, tz->polling_delay_jiffies, 0UL);
}

/* A delay too short for a u32 is an error, not a default */
static void thermal_of_test_polling_delay_malformed(struct kunit *test)
{
	struct thermal_of_test_ctx *ctx = test->priv;

	KUNIT_EXPECT_EQ(test, PTR_ERR(thermal_of_test_register(test, ctx->sens1, TZ_BAD_POLL)),
			-EOVERFLOW);
}

/* "coefficients" gives slope and offset, "sustainable-power" is copied */
static void thermal_of_test_coefficients(struct kunit *test)
{
	struct thermal_of_test_ctx *ctx = test->priv;
	struct thermal_zone_device *tz;

	tz = thermal_of_test_register(test, ctx->sens1, TZ_FULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tz);
	KUNIT_ASSERT_NOT_NULL(test, tz->tzp);
	KUNIT_EXPECT_EQ(test, tz->tzp->slope, 3);
	KUNIT_EXPECT_EQ(test, tz->tzp->offset, -2000);
	KUNIT_EXPECT_EQ(test, tz->tzp->sustainable_power, 1500U);
	KUNIT_EXPECT_TRUE(test, tz->tzp->no_hwmon);
}

/* Without the properties the slope is 1, the offset and power 0 */
static void thermal_of_test_coefficients_default(struct kunit *test)
{
	struct thermal_of_test_ctx *ctx = test->priv;
	struct thermal_zone_device *tz;

	tz = thermal_of_test_register(test, ctx->sens1, TZ_DEFAULTS);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tz);
	KUNIT_ASSERT_NOT_NULL(test, tz->tzp);
	KUNIT_EXPECT_EQ(test, tz->tzp->slope, 1);
	KUNIT_EXPECT_EQ(test, tz->tzp->offset, 0);
	KUNIT_EXPECT_EQ(test, tz->tzp->sustainable_power, 0U);
	KUNIT_EXPECT_TRUE(test, tz->tzp->no_hwmon);
}

/*
 * A cooling device and a zone with a map of it, registered in either
 * order, are bound to the trip of the map with lower = first cell,
 * upper = second cell and the "contribution" as weight, or
 * THERMAL_WEIGHT_DEFAULT without one (the full zone's maps of cooling-0
 * and cooling-1 in thermal_of_test_zones.dts).
 */
struct thermal_of_test_map_case {
	const char *name;
	int cdev;		/* cooling-0 or cooling-1 */
	bool cdev_first;	/* registered before the zone */
	int trip_temp;
	unsigned long lower;
	unsigned long upper;
	unsigned int weight;
};

static const struct thermal_of_test_map_case thermal_of_test_map_cases[] = {
	{ "bind", 0, false, 50000, 1, 3, 64 },
	{ "default_weight", 1, false, 40000, 0, 2, THERMAL_WEIGHT_DEFAULT },
	{ "bind_cdev_first", 0, true, 50000, 1, 3, 64 },
};

static void thermal_of_test_map_desc(const struct thermal_of_test_map_case *m,
				     char *desc)
{
	strscpy(desc, m->name, KUNIT_PARAM_DESC_SIZE);
}

/* Creates thermal_of_test_map_gen_params() */
KUNIT_ARRAY_PARAM(thermal_of_test_map, thermal_of_test_map_cases,
		  thermal_of_test_map_desc);

static void thermal_of_test_cooling_map(struct kunit *test)
{
	const struct thermal_of_test_map_case *m = test->param_value;
	struct thermal_of_test_ctx *ctx = test->priv;
	struct thermal_of_test_binding b = { };
	struct thermal_cooling_device *cdev = NULL;
	struct thermal_zone_device *tz;

	if (m->cdev_first)
		cdev = thermal_of_test_add_cdev(test, m->cdev);
	tz = thermal_of_test_register(test, ctx->sens1, TZ_FULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tz);
	if (!m->cdev_first)
		cdev = thermal_of_test_add_cdev(test, m->cdev);

	KUNIT_ASSERT_EQ(test, thermal_of_test_bindings(tz, cdev, &b), 1);
	KUNIT_EXPECT_EQ(test, b.trip_temp, m->trip_temp);
	KUNIT_EXPECT_EQ(test, b.lower, m->lower);
	KUNIT_EXPECT_EQ(test, b.upper, m->upper);
	KUNIT_EXPECT_EQ(test, b.weight, m->weight);
}

/* Unregistering the cooling device unbinds it through the map */
static void thermal_of_test_cooling_map_unbind(struct kunit *test)
{
	struct thermal_of_test_ctx *ctx = test->priv;
	struct thermal_of_test_binding b = { };
	struct thermal_cooling_device *cdev;
	struct thermal_zone_device *tz;

	tz = thermal_of_test_register(test, ctx->sens1, TZ_FULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tz);
	cdev = thermal_of_test_add_cdev(test, 0);
	KUNIT_ASSERT_EQ(test, thermal_of_test_bindings(tz, cdev, &b), 1);

	thermal_of_test_del_cdev(test, 0);

	mutex_lock(&tz->lock);
	KUNIT_EXPECT_TRUE(test, list_empty(&tz->thermal_instances));
	mutex_unlock(&tz->lock);
}

/* A map without "trip" binds nothing, and the zone still registers */
static void thermal_of_test_cooling_map_without_trip(struct kunit *test)
{
	struct thermal_of_test_ctx *ctx = test->priv;
	struct thermal_of_test_binding b = { };
	struct thermal_cooling_device *cdev;
	struct thermal_zone_device *tz;

	tz = thermal_of_test_register(test, ctx->sens1, TZ_MAP_NO_TRIP);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tz);
	cdev = thermal_of_test_add_cdev(test, 0);

	KUNIT_EXPECT_EQ(test, thermal_of_test_bindings(tz, cdev, &b), 0);
}

/*
 * A cooling device reference carries the minimum and the maximum state
 * (thermal-zones.yaml: "cooling-device ... phandle + limits"; the
 * cooling device binding's #cooling-cells is 2).  cooling-2 has one
 * cell, so the map of tz-one-cell has no maximum: it binds nothing.
 */
static void thermal_of_test_cooling_map_one_cell(struct kunit *test)
{
	struct thermal_of_test_ctx *ctx = test->priv;
	struct thermal_of_test_binding b = { };
	struct thermal_cooling_device *cdev;
	struct thermal_zone_device *tz;

	tz = thermal_of_test_register(test, ctx->sens1, TZ_ONE_CELL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tz);
	cdev = thermal_of_test_add_cdev(test, 2);

	KUNIT_EXPECT_EQ(test, thermal_of_test_bindings(tz, cdev, &b), 0);
}

/*
 * What thermal_of's .bind and .unbind return to the core: 0 when every
 * cooling map was walked (the maps' own bind errors are only logged), or
 * the errno of the map that ended the walk, which bind_tz() and
 * bind_cdev() report with print_bind_err_msg().  The bindings document
 * names no errno; these are 6.1.192's: -ENODEV for a map without a
 * "trip", -ENOENT for one without "cooling-device".  The case calls the
 * ops as the core does, without the core's thermal_list_lock: nothing
 * else registers zones or cooling devices while KUnit runs.
 */
struct thermal_of_test_bind_case {
	const char *name;
	int id;			/* sensor-1 id of the zone */
	int ret;		/* of .unbind and .bind */
	int nbind;		/* bindings of cooling-0 after .bind */
};

static const struct thermal_of_test_bind_case thermal_of_test_bind_cases[] = {
	{ "maps", TZ_FULL, 0, 1 },
	{ "no_cooling_maps", TZ_DEFAULTS, 0, 0 },
	{ "map_without_trip", TZ_MAP_NO_TRIP, -ENODEV, 0 },
	{ "map_without_cooling_device", TZ_MAP_NO_CDEV, -ENOENT, 0 },
};

static void thermal_of_test_bind_desc(const struct thermal_of_test_bind_case *c,
				      char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

/* Creates thermal_of_test_bind_gen_params() */
KUNIT_ARRAY_PARAM(thermal_of_test_bind, thermal_of_test_bind_cases,
		  thermal_of_test_bind_desc);

static void thermal_of_test_bind_ops(struct kunit *test)
{
	const struct thermal_of_test_bind_case *c = test->param_value;
	struct thermal_of_test_ctx *ctx = test->priv;
	struct thermal_of_test_binding b = { };
	struct thermal_cooling_device *cdev;
	struct thermal_zone_device *tz;

	tz = thermal_of_test_register(test, ctx->sens1, c->id);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tz);
	cdev = thermal_of_test_add_cdev(test, 0);

	KUNIT_EXPECT_EQ(test, tz->ops->unbind(tz, cdev), c->ret);
	KUNIT_EXPECT_EQ(test, thermal_of_test_bindings(tz, cdev, &b), 0);
	KUNIT_EXPECT_EQ(test, tz->ops->bind(tz, cdev), c->ret);
	KUNIT_EXPECT_EQ(test, thermal_of_test_bindings(tz, cdev, &b), c->nbind);
}

/* thermal_of_zone_unregister() removes the zone from the thermal class */
static void thermal_of_test_unregister_removes_zone(struct kunit *test)
{
	struct thermal_of_test_ctx *ctx = test->priv;
	struct thermal_zone_device *tz;

	tz = thermal_of_test_register(test, ctx->sens1, TZ_DEFAULTS);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tz);
	KUNIT_EXPECT_PTR_EQ(test, thermal_zone_get_zone_by_name("tz-defaults"), tz);

	thermal_of_test_unregister(test);
	KUNIT_EXPECT_EQ(test, PTR_ERR(thermal_zone_get_zone_by_name("tz-defaults")),
			-ENODEV);
}

/*
 * A zone the sensor's .change_mode refuses to enable is unregistered
 * again, and its errno returned: "Other negative errors are returned by
 * the underlying called functions" (thermal_of_zone_register()).
 */
static void thermal_of_test_enable_error(struct kunit *test)
{
	struct thermal_of_test_ctx *ctx = test->priv;
	struct thermal_zone_device *tz;

	tz = thermal_of_zone_register(ctx->sens1, TZ_DEFAULTS, ctx,
				      &thermal_of_test_tz_enable_fails_ops);
	if (!IS_ERR(tz))
		ctx->tz = tz;

	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(tz), -EIO);
	KUNIT_EXPECT_EQ(test, PTR_ERR(thermal_zone_get_zone_by_name("tz-defaults")),
			-ENODEV);
}

static struct device *thermal_of_test_device(struct kunit *test)
{
	struct thermal_of_test_ctx *ctx = test->priv;
	struct device *dev;

	dev = root_device_register("thermal-of-test");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, dev);
	/* root devices never put their node, so no reference is taken */
	dev->of_node = ctx->sens1;
	ctx->dev = dev;

	return dev;
}

/* The devm variant unregisters the zone when the device goes away */
static void thermal_of_test_devm_release_with_device(struct kunit *test)
{
	struct thermal_of_test_ctx *ctx = test->priv;
	struct thermal_zone_device *tz;
	struct device *dev = thermal_of_test_device(test);

	tz = devm_thermal_of_zone_register(dev, TZ_DEFAULTS, ctx, &thermal_of_test_tz_ops);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tz);
	KUNIT_EXPECT_STREQ(test, tz->type, "tz-defaults");
	KUNIT_EXPECT_PTR_EQ(test, thermal_zone_get_zone_by_name("tz-defaults"), tz);

	root_device_unregister(dev);
	ctx->dev = NULL;
	KUNIT_EXPECT_EQ(test, PTR_ERR(thermal_zone_get_zone_by_name("tz-defaults")),
			-ENODEV);
}

/* devm_thermal_of_zone_unregister() releases the zone at once */
static void thermal_of_test_devm_unregister(struct kunit *test)
{
	struct thermal_of_test_ctx *ctx = test->priv;
	struct thermal_zone_device *tz;
	struct device *dev = thermal_of_test_device(test);

	tz = devm_thermal_of_zone_register(dev, TZ_DEFAULTS, ctx, &thermal_of_test_tz_ops);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tz);

	devm_thermal_of_zone_unregister(dev, tz);
	KUNIT_EXPECT_EQ(test, PTR_ERR(thermal_zone_get_zone_by_name("tz-defaults")),
			-ENODEV);
}

/* A devm registration that fails returns the error of the plain one */
static void thermal_of_test_devm_error(struct kunit *test)
{
	struct thermal_of_test_ctx *ctx = test->priv;
	struct device *dev = thermal_of_test_device(test);

	KUNIT_EXPECT_EQ(test, PTR_ERR(devm_thermal_of_zone_register(dev, TZ_NONE, ctx,
								    &thermal_of_test_tz_ops)),
			-ENODEV);
}

/*
 * The devm variant's first allocation is its devres: failing it
 * (current->fail_nth = 1) is -ENOMEM, and no zone is registered.
 */
static void thermal_of_test_devm_nomem(struct kunit *test)
{
#ifdef CONFIG_FAILSLAB
	struct thermal_of_test_ctx *ctx = test->priv;
	struct device *dev = thermal_of_test_device(test);
	struct thermal_zone_device *tz;

	ctx->failslab_saved = failslab_kunit_ignore_gfp_reclaim(false);
	ctx->failslab_set = true;
	current->fail_nth = 1;
	tz = devm_thermal_of_zone_register(dev, TZ_DEFAULTS, ctx, &thermal_of_test_tz_ops);
	current->fail_nth = 0;
	failslab_kunit_ignore_gfp_reclaim(ctx->failslab_saved);
	ctx->failslab_set = false;

	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(tz), -ENOMEM);
	KUNIT_EXPECT_EQ(test, PTR_ERR(thermal_zone_get_zone_by_name("tz-defaults")),
			-ENODEV);
#else
	kunit_skip(test, "needs CONFIG_FAILSLAB (current->fail_nth)");
#endif
}

/*
 * Regression test for the zone node reference taken by the zone lookup:
 * register/unregister, and a registration that fails after the lookup,
 * leave the zone, /thermal-zones and sensor node reference counts as
 * they were.
 */
static void thermal_of_test_zone_node_refcount(struct kunit *test)
{
	struct thermal_of_test_ctx *ctx = test->priv;
	struct device_node *zones, *zone, *bad;
	unsigned int zones_refs, zone_refs, bad_refs, sensor_refs;
	struct thermal_zone_device *tz;

	zones = thermal_of_test_node(test, "/thermal-zones");
	zone = thermal_of_test_node(test, "/thermal-zones/tz-defaults");
	bad = thermal_of_test_node(test, "/thermal-zones/tz-no-hyst");
	zones_refs = thermal_of_test_refs(zones);
	zone_refs = thermal_of_test_refs(zone);
	bad_refs = thermal_of_test_refs(bad);
	sensor_refs = thermal_of_test_refs(ctx->sens1);

	tz = thermal_of_test_register(test, ctx->sens1, TZ_DEFAULTS);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tz);
	thermal_of_test_unregister(test);
	KUNIT_EXPECT_EQ(test, thermal_of_test_refs(zone), zone_refs);

	KUNIT_EXPECT_EQ(test, PTR_ERR(thermal_of_test_register(test, ctx->sens1, TZ_NO_HYST)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, thermal_of_test_refs(bad), bad_refs);

	KUNIT_EXPECT_EQ(test, thermal_of_test_refs(zones), zones_refs);
	KUNIT_EXPECT_EQ(test, thermal_of_test_refs(ctx->sens1), sensor_refs);
}

/*
 * Regression test for the reference on an empty "trips" node: it must be
 * dropped whether or not the zone then registers.
 */
static void thermal_of_test_empty_trips_refcount(struct kunit *test)
{
	struct thermal_of_test_ctx *ctx = test->priv;
	struct thermal_zone_device *tz;
	struct device_node *trips;
	unsigned int refs;

	trips = thermal_of_test_node(test, "/thermal-zones/tz-empty-trips/trips");
	refs = thermal_of_test_refs(trips);

	tz = thermal_of_test_register(test, ctx->sens1, TZ_EMPTY_TRIPS);
	if (!IS_ERR(tz))
		thermal_of_test_unregister(test);

	KUNIT_EXPECT_EQ(test, thermal_of_test_refs(trips), refs);
}

/*
 * Regression test for the cooling map "trip" phandle: binding and
 * unbinding, from either side, leave the trip nodes' reference counts
 * as they were, and those of /thermal-zones, which each bind and unbind
 * looks the zone up in.
 */
static void thermal_of_test_cooling_map_trip_refcount(struct kunit *test)
{
	struct thermal_of_test_ctx *ctx = test->priv;
	struct device_node *zones, *passive, *active;
	unsigned int zones_refs, passive_refs, active_refs;
	struct thermal_zone_device *tz;

	zones = thermal_of_test_node(test, "/thermal-zones");
	passive = thermal_of_test_node(test, "/thermal-zones/tz-full/trips/trip-passive");
	active = thermal_of_test_node(test, "/thermal-zones/tz-full/trips/trip-active");
	passive_refs = thermal_of_test_refs(passive);
	active_refs = thermal_of_test_refs(active);

	tz = thermal_of_test_register(test, ctx->sens1, TZ_FULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tz);
	/* the registration's own lookup is thermal_of_test_zone_node_refcount's */
	zones_refs = thermal_of_test_refs(zones);
	thermal_of_test_add_cdev(test, 0);
	thermal_of_test_del_cdev(test, 0);
	thermal_of_test_add_cdev(test, 1);
	thermal_of_test_unregister(test);
	thermal_of_test_del_cdev(test, 1);

	KUNIT_EXPECT_EQ(test, thermal_of_test_refs(passive), passive_refs);
	KUNIT_EXPECT_EQ(test, thermal_of_test_refs(active), active_refs);
	KUNIT_EXPECT_EQ(test, thermal_of_test_refs(zones), zones_refs);
}

/*
 * Bad input: zones generated in C.
 *
 * Each input is one zone, "tz-fuzz" on sensor-1 id TZ_FUZZ, written as a
 * flattened overlay by the small FDT writer below and applied on top of
 * the zones overlay (ctx->extra_ovcs_id, removed by exit).  Its trip and
 * cooling-map properties are each present with a good value, missing,
 * empty, one byte long, two cells long, zero, negative or oversized.
 * thermal_of_test_expect() computes what 6.1.192 must do with the zone:
 * the registration's errno or success with every parsed value, and the
 * bindings of cooling-0.  The named cases (thermal_of_test_bad_input)
 * state their result as well, so the model is checked against the table;
 * thermal_of_test_bad_input_random draws FUZZ_COUNT zones from the seed.
 *
 * The binding (Documentation/devicetree/bindings/thermal/
 * thermal-zones.yaml) wants "temperature" an int32 in [-273000, 200000],
 * "hysteresis", "polling-delay(-passive)", "contribution" and
 * "sustainable-power" uint32 cells, "type" one of four strings, "trip" one
 * phandle, "cooling-device" phandle + limits, and requires
 * "polling-delay", "polling-delay-passive", "thermal-sensors" and "trips".
 * 6.1.192 reads every number with of_property_read_u32(): a missing
 * property is -EINVAL, an empty or shorter one -EOVERFLOW and a longer
 * one is accepted with its first cell; no range is checked, so values the
 * binding forbids register as they are (the cases say so).
 */

#define TZ_FUZZ			12	/* sensor-1 id of the generated zone */
#define TOF_TRIPS_MAX		32	/* one more than 6.1.192 registers */
#define TOF_MAPS_MAX		3
#define TOF_CDEV_MAX_STATE	THERMAL_OF_TEST_MAX_STATE

static unsigned long long seed = 0x6b636f6e666f726dULL;	/* "kconform" */
module_param(seed, ullong, 0444);
MODULE_PARM_DESC(seed, "seed of thermal_of_test_bad_input_random (boot: thermal_of_test.seed=N)");

static unsigned int fuzz_count = 100;
module_param(fuzz_count, uint, 0444);
MODULE_PARM_DESC(fuzz_count, "zones of thermal_of_test_bad_input_random (boot: thermal_of_test.fuzz_count=N)");

/* how a numeric property is written; of_property_read_u32() result */
enum tof_kind {
	TOF_CELL,	/* <val>: val */
	TOF_ABSENT,	/* -EINVAL */
	TOF_EMPTY,	/* a property of 0 bytes: -EOVERFLOW */
	TOF_BYTE,	/* /bits/ 8 <val>: -EOVERFLOW */
	TOF_CELLS2,	/* <val 7>: val, the second cell is ignored */
};

struct tof_u32 {
	u8 kind;
	u32 val;
};

/* "type" values: the trip type, or the errno thermal_of_get_trip_type() gives */
static const struct {
	const char *desc;
	const char *val;	/* NULL: no property */
	int len;
	int want;
} tof_types[] = {
	{ "active", "active", 7, THERMAL_TRIP_ACTIVE },
	{ "passive", "passive", 8, THERMAL_TRIP_PASSIVE },
	{ "hot", "hot", 4, THERMAL_TRIP_HOT },
	{ "critical", "critical", 9, THERMAL_TRIP_CRITICAL },
	{ "upper-case", "CRITICAL", 9, THERMAL_TRIP_CRITICAL },
	/* a string list: the first string is used */
	{ "two-strings", "passive\0hot", 12, THERMAL_TRIP_PASSIVE },
	{ "missing", NULL, 0, -EINVAL },
	{ "empty", "", 0, -ENODATA },
	{ "empty-string", "", 1, -ENODEV },
	{ "unknown", "warm", 5, -ENODEV },
	{ "unterminated", "hot", 3, -EILSEQ },
};

#define TOF_TYPE_GOOD	6	/* tof_types[0..5] are accepted */

struct tof_trip {
	struct tof_u32 temp;
	struct tof_u32 hyst;
	u8 type;		/* index in tof_types */
};

/* the "trip" property of a map */
enum tof_ref {
	TOF_REF_TRIP,		/* <&trip-N> */
	TOF_REF_TRIP_EXTRA,	/* <&trip-N 0>: the first phandle is used */
	TOF_REF_ABSENT,
	TOF_REF_EMPTY,
	TOF_REF_ZERO,		/* <0>: no node has phandle 0 */
	TOF_REF_NOT_TRIP,	/* <&sensor-1>: not a trip of the zone */
};

/* the "cooling-device" property of a map; cooling-0 has 2 cells */
enum tof_cdev {
	TOF_CDEV_OK,		/* <&cooling-0 lower upper> */
	TOF_CDEV_EXTRA,		/* <&cooling-0 lower upper 0>: a second, empty entry */
	TOF_CDEV_OTHER,		/* <&cooling-1 lower upper>: never registered */
	TOF_CDEV_ZERO,		/* <0>: one empty entry */
	TOF_CDEV_ABSENT,
	TOF_CDEV_EMPTY,
	TOF_CDEV_NO_LIMITS,	/* <&cooling-0> */
	TOF_CDEV_ONE_LIMIT,	/* <&cooling-0 lower> */
};

struct tof_map {
	u8 ref;
	u8 trip;		/* N of TOF_REF_TRIP(_EXTRA) */
	u8 cdev;
	u32 lower;
	u32 upper;
	struct tof_u32 contribution;
};

/* the "thermal-sensors" property of the zone */
enum tof_sensor {
	TOF_SENSOR_OK,		/* <&sensor-1 TZ_FUZZ> */
	TOF_SENSOR_EXTRA,	/* <&sensor-1 TZ_FUZZ 0> */
	TOF_SENSOR_ABSENT,
	TOF_SENSOR_NO_ID,	/* <&sensor-1>, #thermal-sensor-cells = <1> */
	TOF_SENSOR_OTHER_ID,	/* <&sensor-1 (TZ_FUZZ + 1)> */
	TOF_SENSOR_EMPTY,	/* a property of 0 bytes: no sensor */
	TOF_SENSOR_ZERO,	/* <0>: one empty entry */
};

struct tof_zone {
	u8 sensor;
	bool trips_node;
	int ntrips;
	struct tof_trip trip[TOF_TRIPS_MAX];
	struct tof_u32 poll;
	struct tof_u32 poll_passive;
	struct tof_u32 coef;		/* TOF_CELLS2: slope val, offset 7 */
	struct tof_u32 power;
	int nmaps;
	struct tof_map map[TOF_MAPS_MAX];
};

/* what thermal_of_zone_register() and a cooling-0 registration must do */
struct tof_expect {
	int ret;
	int nbind;
	struct {
		int trip;	/* position in tz->trips */
		unsigned long lower;
		unsigned long upper;
		unsigned int weight;
	} bind[TOF_MAPS_MAX];
};

/* a flattened device tree (v17) written into fixed buffers */
struct tof_fdt {
	__be32 st[4096];	/* structure block */
	unsigned int n;		/* cells used */
	char strings[512];
	unsigned int slen;
	bool overflow;
};

static void tof_fdt_cell(struct tof_fdt *f, u32 v)
{
	if (f->n >= ARRAY_SIZE(f->st)) {
		f->overflow = true;
		return;
	}
	f->st[f->n++] = cpu_to_be32(v);
}

static void tof_fdt_bytes(struct tof_fdt *f, const void *p, unsigned int len)
{
	unsigned int cells = DIV_ROUND_UP(len, 4);

	if (f->n + cells > ARRAY_SIZE(f->st)) {
		f->overflow = true;
		return;
	}
	memset(&f->st[f->n], 0, cells * 4);
	if (len)
		memcpy(&f->st[f->n], p, len);
	f->n += cells;
}

static unsigned int tof_fdt_string(struct tof_fdt *f, const char *s)
{
	unsigned int off, len = strlen(s) + 1;

	for (off = 0; off < f->slen; off += strlen(f->strings + off) + 1)
		if (!strcmp(f->strings + off, s))
			return off;
	if (f->slen + len > sizeof(f->strings)) {
		f->overflow = true;
		return 0;
	}
	memcpy(f->strings + f->slen, s, len);
	f->slen += len;
	return off;
}

static void tof_fdt_begin(struct tof_fdt *f, const char *name)
{
	tof_fdt_cell(f, FDT_BEGIN_NODE);
	tof_fdt_bytes(f, name, strlen(name) + 1);
}

static void tof_fdt_end(struct tof_fdt *f)
{
	tof_fdt_cell(f, FDT_END_NODE);
}

static void tof_fdt_prop(struct tof_fdt *f, const char *name, const void *val,
			 unsigned int len)
{
	tof_fdt_cell(f, FDT_PROP);
	tof_fdt_cell(f, len);
	tof_fdt_cell(f, tof_fdt_string(f, name));
	tof_fdt_bytes(f, val, len);
}

static void tof_fdt_cells(struct tof_fdt *f, const char *name, unsigned int n,
			  const u32 *v)
{
	__be32 be[4];
	unsigned int i;

	for (i = 0; i < n && i < ARRAY_SIZE(be); i++)
		be[i] = cpu_to_be32(v[i]);
	tof_fdt_prop(f, name, be, i * 4);
}

static void tof_fdt_u32(struct tof_fdt *f, const char *name, const struct tof_u32 *p)
{
	u32 cells[2] = { p->val, 7 };
	u8 byte = p->val;

	switch (p->kind) {
	case TOF_CELL:
		tof_fdt_cells(f, name, 1, cells);
		break;
	case TOF_CELLS2:
		tof_fdt_cells(f, name, 2, cells);
		break;
	case TOF_BYTE:
		tof_fdt_prop(f, name, &byte, 1);
		break;
	case TOF_EMPTY:
		tof_fdt_prop(f, name, NULL, 0);
		break;
	}
}

/* the blob: header, empty reservation map, structure block, strings */
static void *tof_fdt_finish(struct tof_fdt *f, size_t *size)
{
	size_t off_st = sizeof(struct fdt_header) + 16;
	size_t off_str, st_size;
	struct fdt_header *h;
	u8 *blob;

	tof_fdt_cell(f, FDT_END);
	if (f->overflow)
		return NULL;
	st_size = f->n * 4;
	off_str = off_st + st_size;
	*size = off_str + f->slen;

	blob = kzalloc(*size, GFP_KERNEL);
	if (!blob)
		return NULL;
	h = (struct fdt_header *)blob;
	h->magic = cpu_to_fdt32(FDT_MAGIC);
	h->totalsize = cpu_to_fdt32(*size);
	h->off_dt_struct = cpu_to_fdt32(off_st);
	h->off_dt_strings = cpu_to_fdt32(off_str);
	h->off_mem_rsvmap = cpu_to_fdt32(sizeof(*h));
	h->version = cpu_to_fdt32(17);
	h->last_comp_version = cpu_to_fdt32(16);
	h->size_dt_strings = cpu_to_fdt32(f->slen);
	h->size_dt_struct = cpu_to_fdt32(st_size);
	memcpy(blob + off_st, f->st, st_size);
	memcpy(blob + off_str, f->strings, f->slen);

	return blob;
}

static void tof_write_map(struct tof_fdt *f, const struct tof_map *m, int i,
			  phandle sensor, phandle cdev0, phandle cdev1)
{
	u32 v[4] = { cdev0, m->lower, m->upper, 0 };
	char name[16];

	snprintf(name, sizeof(name), "map-%d", i);
	tof_fdt_begin(f, name);

	switch (m->ref) {
	case TOF_REF_TRIP:
	case TOF_REF_TRIP_EXTRA: {
		/* the overlay's own phandle, fixed up by __local_fixups__ */
		u32 ref[2] = { m->trip + 1, 0 };

		tof_fdt_cells(f, "trip", m->ref == TOF_REF_TRIP ? 1 : 2, ref);
		break;
	}
	case TOF_REF_EMPTY:
		tof_fdt_prop(f, "trip", NULL, 0);
		break;
	case TOF_REF_ZERO:
		tof_fdt_cells(f, "trip", 1, (u32[]){ 0 });
		break;
	case TOF_REF_NOT_TRIP:
		tof_fdt_cells(f, "trip", 1, (u32[]){ sensor });
		break;
	}

	switch (m->cdev) {
	case TOF_CDEV_OK:
		tof_fdt_cells(f, "cooling-device", 3, v);
		break;
	case TOF_CDEV_EXTRA:
		tof_fdt_cells(f, "cooling-device", 4, v);
		break;
	case TOF_CDEV_OTHER:
		v[0] = cdev1;
		tof_fdt_cells(f, "cooling-device", 3, v);
		break;
	case TOF_CDEV_ZERO:
		tof_fdt_cells(f, "cooling-device", 1, (u32[]){ 0 });
		break;
	case TOF_CDEV_EMPTY:
		tof_fdt_prop(f, "cooling-device", NULL, 0);
		break;
	case TOF_CDEV_NO_LIMITS:
		tof_fdt_cells(f, "cooling-device", 1, v);
		break;
	case TOF_CDEV_ONE_LIMIT:
		tof_fdt_cells(f, "cooling-device", 2, v);
		break;
	}

	tof_fdt_u32(f, "contribution", &m->contribution);
	tof_fdt_end(f);
}

/*
 * The overlay: fragment@0 puts tz-fuzz under /thermal-zones.  Trip N has
 * the local phandle N + 1, which of_resolve_phandles() moves past the
 * live tree's phandles together with the map references that
 * __local_fixups__ lists; sensor-1 and the cooling devices are referred
 * to by their live phandles.
 */
static void *tof_overlay(const struct tof_zone *z, const struct thermal_of_test_ctx *ctx,
			 size_t *size)
{
	phandle sensor = ctx->sens1->phandle;
	phandle cdev0 = ctx->cdev0_np->phandle;
	phandle cdev1 = ctx->cdev1_np->phandle;
	struct tof_fdt *f;
	char name[16];
	void *blob;
	int i;

	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return NULL;

	tof_fdt_begin(f, "");
	tof_fdt_begin(f, "fragment@0");
	tof_fdt_prop(f, "target-path", "/thermal-zones", sizeof("/thermal-zones"));
	tof_fdt_begin(f, "__overlay__");
	tof_fdt_begin(f, "tz-fuzz");

	switch (z->sensor) {
	case TOF_SENSOR_OK:
		tof_fdt_cells(f, "thermal-sensors", 2, (u32[]){ sensor, TZ_FUZZ });
		break;
	case TOF_SENSOR_EXTRA:
		tof_fdt_cells(f, "thermal-sensors", 3, (u32[]){ sensor, TZ_FUZZ, 0 });
		break;
	case TOF_SENSOR_NO_ID:
		tof_fdt_cells(f, "thermal-sensors", 1, (u32[]){ sensor });
		break;
	case TOF_SENSOR_OTHER_ID:
		tof_fdt_cells(f, "thermal-sensors", 2, (u32[]){ sensor, TZ_FUZZ + 1 });
		break;
	case TOF_SENSOR_EMPTY:
		tof_fdt_prop(f, "thermal-sensors", NULL, 0);
		break;
	case TOF_SENSOR_ZERO:
		tof_fdt_cells(f, "thermal-sensors", 1, (u32[]){ 0 });
		break;
	}
	tof_fdt_u32(f, "polling-delay-passive", &z->poll_passive);
	tof_fdt_u32(f, "polling-delay", &z->poll);
	tof_fdt_u32(f, "coefficients", &z->coef);
	tof_fdt_u32(f, "sustainable-power", &z->power);

	if (z->trips_node) {
		tof_fdt_begin(f, "trips");
		for (i = 0; i < z->ntrips; i++) {
			const struct tof_trip *t = &z->trip[i];

			snprintf(name, sizeof(name), "trip-%d", i);
			tof_fdt_begin(f, name);
			tof_fdt_cells(f, "phandle", 1, (u32[]){ i + 1 });
			tof_fdt_u32(f, "temperature", &t->temp);
			tof_fdt_u32(f, "hysteresis", &t->hyst);
			if (tof_types[t->type].val)
				tof_fdt_prop(f, "type", tof_types[t->type].val,
					     tof_types[t->type].len);
			tof_fdt_end(f);
		}
		tof_fdt_end(f);
	}

	if (z->nmaps) {
		tof_fdt_begin(f, "cooling-maps");
		for (i = 0; i < z->nmaps; i++)
			tof_write_map(f, &z->map[i], i, sensor, cdev0, cdev1);
		tof_fdt_end(f);
	}
	tof_fdt_end(f);		/* tz-fuzz */
	tof_fdt_end(f);		/* __overlay__ */
	tof_fdt_end(f);		/* fragment@0 */

	for (i = 0; i < z->nmaps; i++)
		if (z->map[i].ref == TOF_REF_TRIP || z->map[i].ref == TOF_REF_TRIP_EXTRA)
			break;
	if (i < z->nmaps) {
		static const char * const path[] = {
			"__local_fixups__", "fragment@0", "__overlay__", "tz-fuzz", "cooling-maps",
		};
		int j;

		for (j = 0; j < ARRAY_SIZE(path); j++)
			tof_fdt_begin(f, path[j]);
		for (; i < z->nmaps; i++) {
			if (z->map[i].ref != TOF_REF_TRIP && z->map[i].ref != TOF_REF_TRIP_EXTRA)
				continue;
			snprintf(name, sizeof(name), "map-%d", i);
			tof_fdt_begin(f, name);
			/* the byte offset of the phandle in "trip" */
			tof_fdt_cells(f, "trip", 1, (u32[]){ 0 });
			tof_fdt_end(f);
		}
		for (j = 0; j < ARRAY_SIZE(path); j++)
			tof_fdt_end(f);
	}

	tof_fdt_end(f);		/* root */

	blob = tof_fdt_finish(f, size);
	kfree(f);
	return blob;
}

/* of_property_read_u32() of the property as written */
static int tof_u32_read(const struct tof_u32 *p, u32 *val)
{
	switch (p->kind) {
	case TOF_ABSENT:
		return -EINVAL;
	case TOF_EMPTY:
	case TOF_BYTE:
		return -EOVERFLOW;
	default:
		*val = p->val;
		return 0;
	}
}

static int tof_trip_error(const struct tof_trip *t)
{
	u32 v;
	int ret;

	ret = tof_u32_read(&t->temp, &v);
	if (!ret)
		ret = tof_u32_read(&t->hyst, &v);
	if (!ret && tof_types[t->type].want < 0)
		ret = tof_types[t->type].want;

	return ret;
}

static bool tof_cdev_counted(u8 cdev)
{
	return cdev == TOF_CDEV_OK || cdev == TOF_CDEV_EXTRA ||
	       cdev == TOF_CDEV_OTHER || cdev == TOF_CDEV_ZERO;
}

/*
 * The model of 6.1.192.  tpos[N] is the position of trip-N in the live
 * "trips" node, mord[i] the map written as map-mord[i] at position i of
 * "cooling-maps": the parser walks the live tree, whose child order is
 * the overlay's business, not the binding's.
 */
static void thermal_of_test_expect(const struct tof_zone *z, const int *tpos,
				   const int *mord, struct tof_expect *e)
{
	u32 v;
	int i, j, ret = 0;

	memset(e, 0, sizeof(*e));

	/* of_thermal_zone_find() */
	if (z->sensor == TOF_SENSOR_ABSENT || z->sensor == TOF_SENSOR_NO_ID ||
	    z->sensor == TOF_SENSOR_EMPTY)
		ret = -EINVAL;
	else if (z->sensor == TOF_SENSOR_OTHER_ID)
		ret = -ENODEV;
	else if (z->sensor == TOF_SENSOR_ZERO)
		ret = -ENOENT;

	/* thermal_of_trips_init(): the first bad trip in tree order */
	for (i = 0; !ret && z->trips_node && i < z->ntrips; i++)
		for (j = 0; j < z->ntrips; j++)
			if (tpos[j] == i)
				ret = tof_trip_error(&z->trip[j]);

	/* thermal_of_monitor_init(): a missing delay is 0, not an error */
	if (!ret) {
		ret = tof_u32_read(&z->poll_passive, &v);
		if (ret == -EINVAL)
			ret = 0;
	}
	if (!ret) {
		ret = tof_u32_read(&z->poll, &v);
		if (ret == -EINVAL)
			ret = 0;
	}

	/* thermal_zone_device_register_with_trips(): 31 trips at most */
	if (!ret && z->trips_node && z->ntrips > 31)
		ret = -EINVAL;

	e->ret = ret;
	if (ret)
		return;

	/*
	 * thermal_of_for_each_cooling_maps(): a map whose "trip" does not
	 * resolve to a trip of the zone, or whose "cooling-device" list does
	 * not parse, ends the walk; a bad entry or limits only skip the bind.
	 */
	for (i = 0; i < z->nmaps; i++) {
		const struct tof_map *m = &z->map[mord[i]];
		unsigned long lower, upper;
		bool dup = false;
		u32 weight = THERMAL_WEIGHT_DEFAULT;

		if (m->ref != TOF_REF_TRIP && m->ref != TOF_REF_TRIP_EXTRA)
			break;
		if (!tof_cdev_counted(m->cdev))
			break;
		if (m->cdev != TOF_CDEV_OK && m->cdev != TOF_CDEV_EXTRA)
			continue;

		lower = m->lower == THERMAL_NO_LIMIT ? 0 : m->lower;
		upper = m->upper == THERMAL_NO_LIMIT ? TOF_CDEV_MAX_STATE : m->upper;
		if (lower > upper || upper > TOF_CDEV_MAX_STATE)
			continue;
		/* a second map of the same trip and device is -EEXIST */
		for (j = 0; j < e->nbind; j++)
			dup |= e->bind[j].trip == tpos[m->trip];
		if (dup)
			continue;

		tof_u32_read(&m->contribution, &weight);
		e->bind[e->nbind].trip = tpos[m->trip];
		e->bind[e->nbind].lower = lower;
		e->bind[e->nbind].upper = upper;
		e->bind[e->nbind].weight = weight;
		e->nbind++;
	}
}

/* position of each child "<prefix>-N" of @np: pos[N] = position */
static int tof_child_positions(struct device_node *np, const char *prefix, int *pos,
			       int max)
{
	size_t len = strlen(prefix);
	struct device_node *child;
	int i = 0, n;

	for_each_child_of_node(np, child) {
		if (!strncmp(child->name, prefix, len) && child->name[len] == '-' &&
		    !kstrtoint(child->name + len + 1, 10, &n) && n >= 0 && n < max)
			pos[n] = i;
		i++;
	}
	return i;
}

/* every node of a subtree, and the reference counts they start with */
struct tof_refs {
	struct device_node *np[TOF_TRIPS_MAX + TOF_MAPS_MAX + 16];
	unsigned int refs[TOF_TRIPS_MAX + TOF_MAPS_MAX + 16];
	int n;
};

static void tof_refs_add(struct tof_refs *r, struct device_node *np)
{
	struct device_node *child;

	if (r->n < ARRAY_SIZE(r->np))
		r->np[r->n++] = np;
	for_each_child_of_node(np, child)
		tof_refs_add(r, child);
}

/* read the counts once the walk has dropped its own references */
static void tof_refs_take(struct tof_refs *r)
{
	int i;

	for (i = 0; i < r->n; i++)
		r->refs[i] = thermal_of_test_refs(r->np[i]);
}

static void tof_refs_check(struct kunit *test, const struct tof_refs *r, const char *what)
{
	int i;

	KUNIT_EXPECT_LT(test, r->n, (int)ARRAY_SIZE(r->np));
	for (i = 0; i < r->n; i++)
		KUNIT_EXPECT_EQ_MSG(test, thermal_of_test_refs(r->np[i]), r->refs[i],
				    "%s: references of %pOF", what, r->np[i]);
}

static void tof_check_delay(struct kunit *test, unsigned long got, const struct tof_u32 *p,
			    const char *what)
{
	u32 v = 0;
	int ms;

	tof_u32_read(p, &v);
	ms = v;
	/* above a second thermal_set_delay_jiffies() rounds to a whole second */
	if (ms > 1000)
		KUNIT_EXPECT_LE_MSG(test, max(got, msecs_to_jiffies(ms)) -
				    min(got, msecs_to_jiffies(ms)),
				    (unsigned long)HZ, "%s %d ms", what, ms);
	else
		KUNIT_EXPECT_EQ_MSG(test, got, msecs_to_jiffies(ms), "%s %d ms", what, ms);
}

static void tof_check_zone(struct kunit *test, const struct tof_zone *z, const int *tpos,
			   struct thermal_zone_device *tz)
{
	u32 v, slope = 1, offset = 0, power = 0;
	int n = z->trips_node ? z->ntrips : 0;
	int i;

	KUNIT_EXPECT_STREQ(test, tz->type, "tz-fuzz");
	KUNIT_ASSERT_EQ(test, tz->num_trips, n);
	if (!n)
		KUNIT_EXPECT_NULL(test, tz->trips);

	for (i = 0; i < n; i++) {
		const struct thermal_trip *got = &tz->trips[tpos[i]];
		const struct tof_trip *t = &z->trip[i];

		KUNIT_EXPECT_EQ_MSG(test, got->temperature, (int)t->temp.val, "trip-%d", i);
		KUNIT_EXPECT_EQ_MSG(test, got->hysteresis, (int)t->hyst.val, "trip-%d", i);
		KUNIT_EXPECT_EQ_MSG(test, (int)got->type, tof_types[t->type].want, "trip-%d", i);
		/* 6.1.192 disables a trip at 0 millicelsius */
		KUNIT_EXPECT_EQ_MSG(test, (int)test_bit(tpos[i], &tz->trips_disabled),
				    (int)!t->temp.val, "trip-%d at %d", i, (int)t->temp.val);
	}

	tof_check_delay(test, tz->passive_delay_jiffies, &z->poll_passive,
			"polling-delay-passive");
	tof_check_delay(test, tz->polling_delay_jiffies, &z->poll, "polling-delay");

	/* one cell of "coefficients" is not enough: both keep their default */
	if (z->coef.kind == TOF_CELLS2) {
		slope = z->coef.val;
		offset = 7;
	}
	if (!tof_u32_read(&z->power, &v))
		power = v;
	KUNIT_ASSERT_NOT_NULL(test, tz->tzp);
	KUNIT_EXPECT_EQ(test, tz->tzp->slope, (int)slope);
	KUNIT_EXPECT_EQ(test, tz->tzp->offset, (int)offset);
	KUNIT_EXPECT_EQ(test, tz->tzp->sustainable_power, power);
}

static void tof_check_bindings(struct kunit *test, const struct tof_expect *e,
			       struct thermal_zone_device *tz,
			       struct thermal_cooling_device *cdev)
{
	struct thermal_instance *ti;
	int i, n = 0;

	mutex_lock(&tz->lock);
	list_for_each_entry(ti, &tz->thermal_instances, tz_node) {
		if (ti->cdev != cdev)
			continue;
		n++;
		for (i = 0; i < e->nbind; i++)
			if (e->bind[i].trip == ti->trip)
				break;
		if (i == e->nbind) {
			KUNIT_FAIL(test, "unexpected binding on trip %d", ti->trip);
			continue;
		}
		KUNIT_EXPECT_EQ_MSG(test, ti->lower, e->bind[i].lower, "trip %d", ti->trip);
		KUNIT_EXPECT_EQ_MSG(test, ti->upper, e->bind[i].upper, "trip %d", ti->trip);
		KUNIT_EXPECT_EQ_MSG(test, ti->weight, e->bind[i].weight, "trip %d", ti->trip);
	}
	mutex_unlock(&tz->lock);

	KUNIT_EXPECT_EQ(test, n, e->nbind);
}

/*
 * Apply @z, register it, check it against the model and take it down
 * again: no zone left, every node's reference count as it was.  Returns
 * the model's verdict for the table to compare.
 */
static void thermal_of_test_zone_input(struct kunit *test, const struct tof_zone *z,
				       struct tof_expect *e)
{
	struct thermal_of_test_ctx *ctx = test->priv;
	int tpos[TOF_TRIPS_MAX], mord[TOF_MAPS_MAX];
	struct device_node *zone, *np;
	struct thermal_zone_device *tz;
	struct tof_refs *r;
	void *blob;
	size_t size;
	int i, ret;

	for (i = 0; i < TOF_TRIPS_MAX; i++)
		tpos[i] = i;
	for (i = 0; i < TOF_MAPS_MAX; i++)
		mord[i] = i;

	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	blob = tof_overlay(z, ctx, &size);
	KUNIT_ASSERT_NOT_NULL_MSG(test, blob, "overlay blob not written");
	ret = of_overlay_fdt_apply(blob, size, &ctx->extra_ovcs_id);
	kfree(blob);
	KUNIT_ASSERT_EQ_MSG(test, ret, 0, "generated overlay not applied");

	zone = thermal_of_test_node(test, "/thermal-zones/tz-fuzz");
	np = of_get_child_by_name(zone, "trips");
	if (np) {
		int pos[TOF_TRIPS_MAX];

		KUNIT_EXPECT_EQ(test, tof_child_positions(np, "trip", pos, TOF_TRIPS_MAX),
				z->ntrips);
		/* pos[] is only filled for the trips present */
		for (i = 0; i < z->ntrips; i++)
			tpos[i] = pos[i];
		of_node_put(np);
	}
	np = of_get_child_by_name(zone, "cooling-maps");
	if (np) {
		int pos[TOF_MAPS_MAX];

		KUNIT_EXPECT_EQ(test, tof_child_positions(np, "map", pos, TOF_MAPS_MAX),
				z->nmaps);
		for (i = 0; i < z->nmaps; i++)
			mord[pos[i]] = i;
		of_node_put(np);
	}
	thermal_of_test_expect(z, tpos, mord, e);

	tof_refs_add(r, zone);
	tof_refs_add(r, ctx->sens1);
	tof_refs_add(r, ctx->cdev0_np);
	tof_refs_add(r, ctx->cdev1_np);
	tof_refs_take(r);

	tz = thermal_of_test_register(test, ctx->sens1, TZ_FUZZ);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(tz), e->ret);
	if (!IS_ERR(tz)) {
		tof_check_zone(test, z, tpos, tz);
		tof_check_bindings(test, e, tz, thermal_of_test_add_cdev(test, 0));
		thermal_of_test_del_cdev(test, 0);
		thermal_of_test_unregister(test);
	}
	KUNIT_EXPECT_EQ(test, PTR_ERR(thermal_zone_get_zone_by_name("tz-fuzz")), -ENODEV);
	tof_refs_check(test, r, "after unregistering");

	ret = of_overlay_remove(&ctx->extra_ovcs_id);
	KUNIT_EXPECT_EQ(test, ret, 0);
}

/* a zone the binding accepts: two trips, one map, every property set */
static void tof_good_zone(struct tof_zone *z)
{
	memset(z, 0, sizeof(*z));
	z->sensor = TOF_SENSOR_OK;
	z->trips_node = true;
	z->ntrips = 2;
	z->trip[0] = (struct tof_trip){ { TOF_CELL, 50000 }, { TOF_CELL, 2000 }, 1 };
	z->trip[1] = (struct tof_trip){ { TOF_CELL, 90000 }, { TOF_CELL, 0 }, 3 };
	z->poll_passive = (struct tof_u32){ TOF_CELL, 250 };
	z->poll = (struct tof_u32){ TOF_CELL, 500 };
	z->coef = (struct tof_u32){ TOF_CELLS2, 3 };
	z->power = (struct tof_u32){ TOF_CELL, 1500 };
	z->nmaps = 1;
	z->map[0] = (struct tof_map){ TOF_REF_TRIP, 0, TOF_CDEV_OK, 1, 3, { TOF_CELL, 64 } };
}

/* what a named case changes in tof_good_zone() */
enum tof_target {
	TOF_T_SENSOR, TOF_T_NTRIPS, TOF_T_NO_TRIPS_NODE, TOF_T_TEMP, TOF_T_HYST,
	TOF_T_TYPE, TOF_T_POLL, TOF_T_POLL_PASSIVE, TOF_T_COEF, TOF_T_POWER,
	TOF_T_REF, TOF_T_REF_AROUND, TOF_T_CDEV, TOF_T_CDEV_AROUND, TOF_T_LIMITS,
	TOF_T_CONTRIB,
};

struct tof_case {
	const char *name;
	u8 target;
	u8 kind;	/* tof_kind, tof_ref, tof_cdev, tof_sensor, type index */
	u32 val;
	u32 val2;	/* upper limit of TOF_T_LIMITS */
	int ret;	/* thermal_of_zone_register() */
	int nbind;	/* bindings of cooling-0 */
};

#define NEG(x)	((u32)(x))

static const struct tof_case tof_cases[] = {
	{ "good", TOF_T_TEMP, TOF_CELL, 50000, 0, 0, 1 },
	/* zone */
	{ "sensors-missing", TOF_T_SENSOR, TOF_SENSOR_ABSENT, 0, 0, -EINVAL, 0 },
	{ "sensors-without-id", TOF_T_SENSOR, TOF_SENSOR_NO_ID, 0, 0, -EINVAL, 0 },
	{ "sensors-other-id", TOF_T_SENSOR, TOF_SENSOR_OTHER_ID, 0, 0, -ENODEV, 0 },
	{ "sensors-extra-entry", TOF_T_SENSOR, TOF_SENSOR_EXTRA, 0, 0, 0, 1 },
	/* "thermal-sensors" has no entry: a malformed zone, not another zone's */
	{ "sensors-empty", TOF_T_SENSOR, TOF_SENSOR_EMPTY, 0, 0, -EINVAL, 0 },
	/* an empty entry: of_parse_phandle_with_args()'s -ENOENT */
	{ "sensors-zero", TOF_T_SENSOR, TOF_SENSOR_ZERO, 0, 0, -ENOENT, 0 },
	/* the binding requires "trips"; 6.1.192 (with 0103) registers without */
	{ "trips-node-missing", TOF_T_NO_TRIPS_NODE, 0, 0, 0, 0, 0 },
	{ "trips-none", TOF_T_NTRIPS, 0, 0, 0, 0, 0 },
	{ "trips-31", TOF_T_NTRIPS, 0, 31, 0, 0, 1 },
	{ "trips-32", TOF_T_NTRIPS, 0, 32, 0, -EINVAL, 0 },
	/* "temperature": int32 in [-273000, 200000] */
	{ "temperature-missing", TOF_T_TEMP, TOF_ABSENT, 0, 0, -EINVAL, 0 },
	{ "temperature-empty", TOF_T_TEMP, TOF_EMPTY, 0, 0, -EOVERFLOW, 0 },
	{ "temperature-one-byte", TOF_T_TEMP, TOF_BYTE, 50, 0, -EOVERFLOW, 0 },
	{ "temperature-two-cells", TOF_T_TEMP, TOF_CELLS2, 50000, 0, 0, 1 },
	{ "temperature-zero", TOF_T_TEMP, TOF_CELL, 0, 0, 0, 1 },
	{ "temperature-negative", TOF_T_TEMP, TOF_CELL, NEG(-10000), 0, 0, 1 },
	{ "temperature-minimum", TOF_T_TEMP, TOF_CELL, NEG(-273000), 0, 0, 1 },
	/* below the binding's minimum, accepted by 6.1.192 */
	{ "temperature-below-minimum", TOF_T_TEMP, TOF_CELL, NEG(-273001), 0, 0, 1 },
	{ "temperature-int-min", TOF_T_TEMP, TOF_CELL, NEG(INT_MIN), 0, 0, 1 },
	{ "temperature-maximum", TOF_T_TEMP, TOF_CELL, 200000, 0, 0, 1 },
	/* above the binding's maximum, accepted by 6.1.192 */
	{ "temperature-above-maximum", TOF_T_TEMP, TOF_CELL, 200001, 0, 0, 1 },
	{ "temperature-int-max", TOF_T_TEMP, TOF_CELL, INT_MAX, 0, 0, 1 },
	{ "temperature-all-ones", TOF_T_TEMP, TOF_CELL, U32_MAX, 0, 0, 1 },
	/* "hysteresis": uint32 */
	{ "hysteresis-missing", TOF_T_HYST, TOF_ABSENT, 0, 0, -EINVAL, 0 },
	{ "hysteresis-empty", TOF_T_HYST, TOF_EMPTY, 0, 0, -EOVERFLOW, 0 },
	{ "hysteresis-one-byte", TOF_T_HYST, TOF_BYTE, 2, 0, -EOVERFLOW, 0 },
	{ "hysteresis-two-cells", TOF_T_HYST, TOF_CELLS2, 2000, 0, 0, 1 },
	{ "hysteresis-zero", TOF_T_HYST, TOF_CELL, 0, 0, 0, 1 },
	/* a uint32 above INT_MAX is a negative hysteresis in 6.1.192 */
	{ "hysteresis-negative", TOF_T_HYST, TOF_CELL, NEG(-1000), 0, 0, 1 },
	{ "hysteresis-u32-max", TOF_T_HYST, TOF_CELL, U32_MAX, 0, 0, 1 },
	/* "type" */
	{ "type-active", TOF_T_TYPE, 0, 0, 0, 0, 1 },
	{ "type-hot", TOF_T_TYPE, 2, 0, 0, 0, 1 },
	/* the binding's enum is lower case; 6.1.192 compares with strcasecmp() */
	{ "type-upper-case", TOF_T_TYPE, 4, 0, 0, 0, 1 },
	{ "type-two-strings", TOF_T_TYPE, 5, 0, 0, 0, 1 },
	{ "type-missing", TOF_T_TYPE, 6, 0, 0, -EINVAL, 0 },
	{ "type-empty", TOF_T_TYPE, 7, 0, 0, -ENODATA, 0 },
	{ "type-empty-string", TOF_T_TYPE, 8, 0, 0, -ENODEV, 0 },
	{ "type-unknown", TOF_T_TYPE, 9, 0, 0, -ENODEV, 0 },
	{ "type-unterminated", TOF_T_TYPE, 10, 0, 0, -EILSEQ, 0 },
	/* the delays are required by the binding, 0 when missing in 6.1.192 */
	{ "polling-delay-missing", TOF_T_POLL, TOF_ABSENT, 0, 0, 0, 1 },
	{ "polling-delay-zero", TOF_T_POLL, TOF_CELL, 0, 0, 0, 1 },
	{ "polling-delay-empty", TOF_T_POLL, TOF_EMPTY, 0, 0, -EOVERFLOW, 0 },
	{ "polling-delay-one-byte", TOF_T_POLL, TOF_BYTE, 5, 0, -EOVERFLOW, 0 },
	{ "polling-delay-two-cells", TOF_T_POLL, TOF_CELLS2, 500, 0, 0, 1 },
	{ "polling-delay-int-max", TOF_T_POLL, TOF_CELL, INT_MAX, 0, 0, 1 },
	/* a uint32 above INT_MAX is a negative int: MAX_JIFFY_OFFSET */
	{ "polling-delay-u32-max", TOF_T_POLL, TOF_CELL, U32_MAX, 0, 0, 1 },
	{ "polling-delay-passive-missing", TOF_T_POLL_PASSIVE, TOF_ABSENT, 0, 0, 0, 1 },
	{ "polling-delay-passive-empty", TOF_T_POLL_PASSIVE, TOF_EMPTY, 0, 0, -EOVERFLOW, 0 },
	{ "polling-delay-passive-one-byte", TOF_T_POLL_PASSIVE, TOF_BYTE, 5, 0, -EOVERFLOW, 0 },
	{ "polling-delay-passive-u32-max", TOF_T_POLL_PASSIVE, TOF_CELL, U32_MAX, 0, 0, 1 },
	/* "coefficients" silently falls back to 1 and 0 when unreadable */
	{ "coefficients-missing", TOF_T_COEF, TOF_ABSENT, 0, 0, 0, 1 },
	{ "coefficients-one-cell", TOF_T_COEF, TOF_CELL, 3, 0, 0, 1 },
	{ "coefficients-negative", TOF_T_COEF, TOF_CELLS2, NEG(-5), 0, 0, 1 },
	{ "coefficients-one-byte", TOF_T_COEF, TOF_BYTE, 3, 0, 0, 1 },
	{ "sustainable-power-missing", TOF_T_POWER, TOF_ABSENT, 0, 0, 0, 1 },
	{ "sustainable-power-zero", TOF_T_POWER, TOF_CELL, 0, 0, 0, 1 },
	{ "sustainable-power-u32-max", TOF_T_POWER, TOF_CELL, U32_MAX, 0, 0, 1 },
	{ "sustainable-power-empty", TOF_T_POWER, TOF_EMPTY, 0, 0, 0, 1 },
	/* a broken map leaves the zone registered, with nothing bound */
	{ "map-trip-missing", TOF_T_REF, TOF_REF_ABSENT, 0, 0, 0, 0 },
	{ "map-trip-empty", TOF_T_REF, TOF_REF_EMPTY, 0, 0, 0, 0 },
	{ "map-trip-zero", TOF_T_REF, TOF_REF_ZERO, 0, 0, 0, 0 },
	{ "map-trip-not-a-trip", TOF_T_REF, TOF_REF_NOT_TRIP, 0, 0, 0, 0 },
	{ "map-trip-two-cells", TOF_T_REF, TOF_REF_TRIP_EXTRA, 0, 0, 0, 1 },
	/*
	 * a map whose "trip" is missing or no trip of the zone ends the walk
	 * too: the good map between two such maps is never bound
	 */
	{ "map-trip-missing-ends-walk", TOF_T_REF_AROUND, TOF_REF_ABSENT, 0, 0, 0, 0 },
	{ "map-trip-not-a-trip-ends-walk", TOF_T_REF_AROUND, TOF_REF_NOT_TRIP, 0, 0, 0, 0 },
	{ "map-cooling-device-missing", TOF_T_CDEV, TOF_CDEV_ABSENT, 0, 0, 0, 0 },
	{ "map-cooling-device-empty", TOF_T_CDEV, TOF_CDEV_EMPTY, 0, 0, 0, 0 },
	{ "map-cooling-device-zero", TOF_T_CDEV, TOF_CDEV_ZERO, 0, 0, 0, 0 },
	{ "map-cooling-device-no-limits", TOF_T_CDEV, TOF_CDEV_NO_LIMITS, 0, 0, 0, 0 },
	{ "map-cooling-device-one-limit", TOF_T_CDEV, TOF_CDEV_ONE_LIMIT, 0, 0, 0, 0 },
	{ "map-cooling-device-extra-entry", TOF_T_CDEV, TOF_CDEV_EXTRA, 0, 0, 0, 1 },
	{ "map-cooling-device-other", TOF_T_CDEV, TOF_CDEV_OTHER, 0, 0, 0, 0 },
	/*
	 * an empty "cooling-device" list (0 entries, -ENOENT) ends the walk:
	 * the good map between two such maps, in either tree order, is
	 * never bound
	 */
	{ "map-cooling-device-empty-ends-walk", TOF_T_CDEV_AROUND, TOF_CDEV_EMPTY, 0, 0, 0, 0 },
	{ "map-limits-zero", TOF_T_LIMITS, 0, 0, 0, 0, 1 },
	{ "map-limits-full-range", TOF_T_LIMITS, 0, 0, TOF_CDEV_MAX_STATE, 0, 1 },
	{ "map-limits-reversed", TOF_T_LIMITS, 0, 3, 1, 0, 0 },
	{ "map-limits-above-max-state", TOF_T_LIMITS, 0, 0, TOF_CDEV_MAX_STATE + 1, 0, 0 },
	{ "map-limits-no-limit", TOF_T_LIMITS, 0, THERMAL_NO_LIMIT, THERMAL_NO_LIMIT, 0, 1 },
	{ "map-limits-negative-lower", TOF_T_LIMITS, 0, NEG(-2), 3, 0, 0 },
	{ "map-contribution-missing", TOF_T_CONTRIB, TOF_ABSENT, 0, 0, 0, 1 },
	{ "map-contribution-zero", TOF_T_CONTRIB, TOF_CELL, 0, 0, 0, 1 },
	{ "map-contribution-u32-max", TOF_T_CONTRIB, TOF_CELL, U32_MAX, 0, 0, 1 },
	{ "map-contribution-one-byte", TOF_T_CONTRIB, TOF_BYTE, 64, 0, 0, 1 },
	{ "map-contribution-two-cells", TOF_T_CONTRIB, TOF_CELLS2, 64, 0, 0, 1 },
};

static void tof_case_desc(const struct tof_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(tof_cases, tof_cases, tof_case_desc);

static void tof_case_zone(const struct tof_case *c, struct tof_zone *z)
{
	struct tof_u32 u = { c->kind, c->val };
	int i;

	tof_good_zone(z);
	switch (c->target) {
	case TOF_T_SENSOR:
		z->sensor = c->kind;
		break;
	case TOF_T_NTRIPS:
		z->ntrips = c->val;
		for (i = 0; i < z->ntrips; i++)
			z->trip[i] = (struct tof_trip){ { TOF_CELL, 40000 + 1000 * i },
							{ TOF_CELL, 0 }, 1 };
		if (!z->ntrips)
			z->nmaps = 0;
		break;
	case TOF_T_NO_TRIPS_NODE:
		z->trips_node = false;
		z->ntrips = 0;
		z->nmaps = 0;
		break;
	case TOF_T_TEMP:
		z->trip[0].temp = u;
		break;
	case TOF_T_HYST:
		z->trip[0].hyst = u;
		break;
	case TOF_T_TYPE:
		z->trip[0].type = c->kind;
		break;
	case TOF_T_POLL:
		z->poll = u;
		break;
	case TOF_T_POLL_PASSIVE:
		z->poll_passive = u;
		break;
	case TOF_T_COEF:
		z->coef = u;
		break;
	case TOF_T_POWER:
		z->power = u;
		break;
	case TOF_T_REF:
		z->map[0].ref = c->kind;
		break;
	case TOF_T_REF_AROUND:
		z->nmaps = 3;
		z->map[1] = z->map[0];
		z->map[2] = z->map[0];
		z->map[0].ref = c->kind;
		z->map[2].ref = c->kind;
		break;
	case TOF_T_CDEV:
		z->map[0].cdev = c->kind;
		break;
	case TOF_T_CDEV_AROUND:
		z->nmaps = 3;
		z->map[1] = z->map[0];
		z->map[2] = z->map[0];
		z->map[0].cdev = c->kind;
		z->map[2].cdev = c->kind;
		break;
	case TOF_T_LIMITS:
		z->map[0].lower = c->val;
		z->map[0].upper = c->val2;
		break;
	case TOF_T_CONTRIB:
		z->map[0].contribution = u;
		break;
	}
}

/* One named edge case: the table's result, the model's, and the kernel's agree */
static void thermal_of_test_bad_input(struct kunit *test)
{
	const struct tof_case *c = test->param_value;
	struct thermal_of_test_ctx *ctx = test->priv;
	struct tof_expect e;
	struct tof_zone *z;

	z = kunit_kzalloc(test, sizeof(*z), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, z);
	tof_case_zone(c, z);
	/* at 0 millicelsius no hot or critical trip is ever crossed */
	ctx->temp = 0;

	thermal_of_test_zone_input(test, z, &e);
	KUNIT_EXPECT_EQ_MSG(test, e.ret, c->ret, "model and table disagree");
	KUNIT_EXPECT_EQ_MSG(test, e.nbind, c->nbind, "model and table disagree");
}

static u32 tof_pick(struct rnd_state *rnd, const u32 *v, unsigned int n)
{
	return v[prandom_u32_state(rnd) % n];
}

/* a good value most of the time, else one of the bad encodings */
static void tof_random_u32(struct rnd_state *rnd, struct tof_u32 *p, const u32 *vals,
			   unsigned int nvals, unsigned int bad_percent)
{
	static const u8 bad[] = { TOF_ABSENT, TOF_EMPTY, TOF_BYTE, TOF_CELLS2 };

	p->val = tof_pick(rnd, vals, nvals);
	if (prandom_u32_state(rnd) % 100 < bad_percent)
		p->kind = bad[prandom_u32_state(rnd) % ARRAY_SIZE(bad)];
	else
		p->kind = TOF_CELL;
}

static void tof_random_zone(struct rnd_state *rnd, struct tof_zone *z)
{
	static const u32 temps[] = {
		0, 1, 40000, 50000, 90000, 200000, 200001, INT_MAX, U32_MAX,
		NEG(-1000), NEG(-273000), NEG(-273001), NEG(-274000), NEG(INT_MIN),
	};
	static const u32 small[] = { 0, 1, 100, 1000, 1001, INT_MAX, U32_MAX, NEG(-1) };
	static const u32 limits[] = { 0, 1, 2, 3, 5, 6, THERMAL_NO_LIMIT, NEG(-2) };
	static const u32 trip_counts[] = { 0, 1, 2, 3, 4, 8, 30, 31, 32 };
	static const u8 refs[] = {
		TOF_REF_TRIP_EXTRA, TOF_REF_ABSENT, TOF_REF_EMPTY, TOF_REF_ZERO, TOF_REF_NOT_TRIP,
	};
	unsigned int r;
	int i;

	memset(z, 0, sizeof(*z));
	r = prandom_u32_state(rnd) % 100;
	z->sensor = r < 96 ? TOF_SENSOR_OK : TOF_SENSOR_EXTRA + r % 4;
	z->trips_node = prandom_u32_state(rnd) % 16;
	r = prandom_u32_state(rnd) % 100;
	z->ntrips = r < 80 ? 1 + r % 4 : tof_pick(rnd, trip_counts, ARRAY_SIZE(trip_counts));
	if (!z->trips_node)
		z->ntrips = 0;

	for (i = 0; i < z->ntrips; i++) {
		struct tof_trip *t = &z->trip[i];

		tof_random_u32(rnd, &t->temp, temps, ARRAY_SIZE(temps), 3);
		tof_random_u32(rnd, &t->hyst, small, ARRAY_SIZE(small), 3);
		r = prandom_u32_state(rnd) % 100;
		t->type = r < 96 ? r % TOF_TYPE_GOOD :
			  TOF_TYPE_GOOD + r % (ARRAY_SIZE(tof_types) - TOF_TYPE_GOOD);
	}
	tof_random_u32(rnd, &z->poll, small, ARRAY_SIZE(small), 10);
	tof_random_u32(rnd, &z->poll_passive, small, ARRAY_SIZE(small), 10);
	tof_random_u32(rnd, &z->coef, temps, ARRAY_SIZE(temps), 50);
	tof_random_u32(rnd, &z->power, small, ARRAY_SIZE(small), 30);

	z->nmaps = prandom_u32_state(rnd) % (TOF_MAPS_MAX + 1);
	for (i = 0; i < z->nmaps; i++) {
		struct tof_map *m = &z->map[i];

		r = prandom_u32_state(rnd) % 100;
		m->ref = r < 85 ? TOF_REF_TRIP : refs[r % ARRAY_SIZE(refs)];
		if (z->ntrips)
			m->trip = prandom_u32_state(rnd) % z->ntrips;
		else if (m->ref <= TOF_REF_TRIP_EXTRA)
			m->ref = TOF_REF_ABSENT;
		r = prandom_u32_state(rnd) % 100;
		m->cdev = r < 75 ? TOF_CDEV_OK : r % (TOF_CDEV_ONE_LIMIT + 1);
		if (prandom_u32_state(rnd) % 2) {
			m->lower = tof_pick(rnd, limits, ARRAY_SIZE(limits));
			m->upper = tof_pick(rnd, limits, ARRAY_SIZE(limits));
		} else {
			/* lower <= upper <= max state */
			m->lower = prandom_u32_state(rnd) % 3;
			m->upper = 2 + prandom_u32_state(rnd) % 4;
		}
		tof_random_u32(rnd, &m->contribution, small, ARRAY_SIZE(small), 20);
	}
}

/*
 * fuzz_count zones (default 100) drawn from the seed (default
 * 0x6b636f6e666f726d; boot with thermal_of_test.seed=N and
 * thermal_of_test.fuzz_count=N for others), each checked like a named
 * case.  Stops at the first input that fails; exit names its number.
 */
static void thermal_of_test_bad_input_random(struct kunit *test)
{
	struct thermal_of_test_ctx *ctx = test->priv;
	unsigned int i, registered = 0, bound = 0;
	struct rnd_state rnd;
	struct tof_expect e;
	struct tof_zone *z;

	z = kunit_kzalloc(test, sizeof(*z), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, z);
	kunit_info(test, "seed: %llu (thermal_of_test.seed=N), %u inputs\n", seed, fuzz_count);
	prandom_seed_state(&rnd, seed);
	ctx->temp = 0;

	for (i = 0; i < fuzz_count; i++) {
		/* a long loop in one kthread: let RCU's kthread run (1 CPU) */
		cond_resched();
		ctx->input = i;
		tof_random_zone(&rnd, z);
		thermal_of_test_zone_input(test, z, &e);
		/* exit names the input */
		if (READ_ONCE(test->status) == KUNIT_FAILURE)
			return;
		registered += !e.ret;
		bound += e.nbind;
	}
	ctx->input = -1;
	kunit_info(test, "%u inputs: %u registered, %u bindings\n", i, registered, bound);
}

/*
 * A zone keeps no reference to its node (0104): .bind and .unbind look
 * it up in /thermal-zones by the zone's type each time.  A zone whose
 * node went away with its overlay binds nothing, and both ops return
 * -ENODEV (thermal_of_zone_get_by_name()).
 */
static void thermal_of_test_zone_node_removed(struct kunit *test)
{
	struct thermal_of_test_ctx *ctx = test->priv;
	struct thermal_of_test_binding b = { };
	struct thermal_cooling_device *cdev;
	struct thermal_zone_device *tz;
	struct tof_zone *z;
	size_t size;
	void *blob;
	int ret;

	z = kunit_kzalloc(test, sizeof(*z), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, z);
	/* tz-fuzz, with a map of cooling-0 */
	tof_good_zone(z);
	blob = tof_overlay(z, ctx, &size);
	KUNIT_ASSERT_NOT_NULL_MSG(test, blob, "overlay blob not written");
	ret = of_overlay_fdt_apply(blob, size, &ctx->extra_ovcs_id);
	kfree(blob);
	KUNIT_ASSERT_EQ_MSG(test, ret, 0, "generated overlay not applied");

	tz = thermal_of_test_register(test, ctx->sens1, TZ_FUZZ);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tz);
	KUNIT_ASSERT_EQ(test, of_overlay_remove(&ctx->extra_ovcs_id), 0);
	cdev = thermal_of_test_add_cdev(test, 0);

	KUNIT_EXPECT_EQ(test, thermal_of_test_bindings(tz, cdev, &b), 0);
	KUNIT_EXPECT_EQ(test, tz->ops->bind(tz, cdev), -ENODEV);
	KUNIT_EXPECT_EQ(test, tz->ops->unbind(tz, cdev), -ENODEV);
}

/*
 * Without a /thermal-zones node no sensor has a zone: -ENODEV, which
 * drivers take for "no zone described" (thermal_of_zone_register() does
 * not even log it).  A zone registered before the node went away binds
 * nothing: .bind and .unbind return -ENODEV too.
 */
static void thermal_of_test_zones_node_missing(struct kunit *test)
{
	struct thermal_of_test_ctx *ctx = test->priv;
	struct thermal_zone_device *tz, *none;
	struct thermal_cooling_device *cdev;
	struct device_node *np;

	tz = thermal_of_test_register(test, ctx->sens1, TZ_DEFAULTS);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tz);
	/* the sensor and cooling device nodes go with it */
	KUNIT_ASSERT_EQ(test, of_overlay_remove(&ctx->ovcs_id), 0);
	np = of_find_node_by_name(NULL, "thermal-zones");
	if (np) {
		of_node_put(np);
		kunit_skip(test, "the platform's tree has a thermal-zones node");
	}

	none = thermal_of_zone_register(of_root, 0, ctx, &thermal_of_test_tz_ops);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(none), -ENODEV);
	if (!IS_ERR(none))
		thermal_of_zone_unregister(none);

	/* a cooling device without a node: the core still offers it */
	cdev = thermal_cooling_device_register("thermal-of-test-no-node", ctx,
					       &thermal_of_test_cdev_ops);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cdev);
	ctx->cdev[2] = cdev;

	KUNIT_EXPECT_EQ(test, tz->ops->bind(tz, cdev), -ENODEV);
	KUNIT_EXPECT_EQ(test, tz->ops->unbind(tz, cdev), -ENODEV);
}

/*
 * Fault injection: fail the Nth slab allocation of
 * thermal_of_zone_register() (tz-full, with cooling-0 registered first so
 * the binding runs inside it) for N = 1, 2, ... until a registration
 * no longer reaches the Nth allocation.  Each run either fails with
 * -ENOMEM (the documented errno) and leaves no zone, or absorbs the
 * failure (a uevent, a netlink event, a binding) and returns a working
 * zone; after each, an unfaulted registration gets the same zone id
 * (the id was freed) and binds cooling-0 once, and no node keeps a
 * reference.  The KUnit boot runs no kmemleak scan: leaks of memory show
 * up only through these counts, the ids and the zone list.
 */
static void thermal_of_test_register_fail_nth(struct kunit *test)
{
#ifdef CONFIG_FAILSLAB
	struct thermal_of_test_ctx *ctx = test->priv;
	struct thermal_of_test_binding b = { };
	unsigned int n, left, failed = 0, absorbed = 0;
	struct thermal_cooling_device *cdev;
	struct thermal_zone_device *tz;
	struct tof_refs *r;
	int id, err, temp;

	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	tof_refs_add(r, thermal_of_test_node(test, "/thermal-zones/tz-full"));
	tof_refs_add(r, ctx->sens1);
	tof_refs_add(r, ctx->cdev0_np);
	tof_refs_add(r, ctx->cdev1_np);
	tof_refs_take(r);

	cdev = thermal_of_test_add_cdev(test, 0);
	tz = thermal_of_test_register(test, ctx->sens1, TZ_FULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tz);
	id = tz->id;
	thermal_of_test_unregister(test);

	ctx->failslab_saved = failslab_kunit_ignore_gfp_reclaim(false);
	ctx->failslab_set = true;

	for (n = 1; n < 1000; n++) {
		cond_resched();
		current->fail_nth = n;
		tz = thermal_of_zone_register(ctx->sens1, TZ_FULL, ctx, &thermal_of_test_tz_ops);
		left = current->fail_nth;
		current->fail_nth = 0;

		err = PTR_ERR_OR_ZERO(tz);
		if (!err)
			ctx->tz = tz;
		if (left) {
			/* fewer than n allocations: nothing failed */
			KUNIT_EXPECT_EQ_MSG(test, err, 0, "unfaulted registration, n = %u", n);
			thermal_of_test_unregister(test);
			break;
		}
		/*
		 * The first allocation is the ops copy.  Later ones may be
		 * kmemleak's record of an object, which falls back to its
		 * pool, so success and -ENOMEM are both correct there.
		 */
		if (n == 1 || err) {
			KUNIT_EXPECT_EQ_MSG(test, err, -ENOMEM, "allocation %u failed", n);
			KUNIT_EXPECT_EQ(test, PTR_ERR(thermal_zone_get_zone_by_name("tz-full")),
					-ENODEV);
			failed++;
		} else {
			/* the zone is whole: only a binding may be missing */
			KUNIT_EXPECT_PTR_EQ(test, thermal_zone_get_zone_by_name("tz-full"), tz);
			KUNIT_EXPECT_EQ_MSG(test, tz->num_trips, 4, "allocation %u failed", n);
			KUNIT_EXPECT_NOT_ERR_OR_NULL(test, tz->tzp);
			KUNIT_EXPECT_EQ(test, thermal_zone_get_temp(tz, &temp), 0);
			KUNIT_EXPECT_EQ(test, temp, ctx->temp);
			absorbed++;
		}
		thermal_of_test_unregister(test);

		tz = thermal_of_test_register(test, ctx->sens1, TZ_FULL);
		KUNIT_ASSERT_NOT_ERR_OR_NULL_MSG(test, tz, "after failing allocation %u", n);
		KUNIT_EXPECT_EQ_MSG(test, tz->id, id, "zone id leaked by allocation %u", n);
		KUNIT_EXPECT_EQ_MSG(test, thermal_of_test_bindings(tz, cdev, &b), 1,
				    "after failing allocation %u", n);
		thermal_of_test_unregister(test);
		tof_refs_check(test, r, "after a failed allocation");
		if (READ_ONCE(test->status) == KUNIT_FAILURE) {
			kunit_err(test, "stopped at allocation %u\n", n);
			break;
		}
	}

	failslab_kunit_ignore_gfp_reclaim(ctx->failslab_saved);
	ctx->failslab_set = false;
	KUNIT_EXPECT_LT_MSG(test, n, 1000U, "still failing after 1000 allocations");
	/* thermal_of.c's three allocations and the zone's at least */
	KUNIT_EXPECT_GE(test, failed, 4U);
	kunit_info(test, "up to allocation %u: %u failed with -ENOMEM, %u absorbed\n",
		   n, failed, absorbed);

	thermal_of_test_del_cdev(test, 0);
	tof_refs_check(test, r, "at the end");
#else
	kunit_skip(test, "needs CONFIG_FAILSLAB (current->fail_nth)");
#endif
}

static int thermal_of_test_init(struct kunit *test)
{
	struct thermal_of_test_ctx *ctx;
	int ret;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	test->priv = ctx;
	ctx->temp = THERMAL_OF_TEST_TEMP;
	ctx->input = -1;

	ret = thermal_of_test_apply(&thermal_of_test_zones, &ctx->ovcs_id);
	KUNIT_ASSERT_EQ_MSG(test, ret, 0, "zones overlay not applied");

	ctx->sens0 = thermal_of_test_node(test, "/thermal-of-test/sensor-0");
	ctx->sens1 = thermal_of_test_node(test, "/thermal-of-test/sensor-1");
	ctx->sens2 = thermal_of_test_node(test, "/thermal-of-test/sensor-2");
	ctx->cdev0_np = thermal_of_test_node(test, "/thermal-of-test/cooling-0");
	ctx->cdev1_np = thermal_of_test_node(test, "/thermal-of-test/cooling-1");

	return 0;
}

/* runs after a failed init or an aborted case too, so check everything */
static void thermal_of_test_exit(struct kunit *test)
{
	struct thermal_of_test_ctx *ctx = test->priv;
	int i, ret;

	if (!ctx)
		return;

#ifdef CONFIG_FAILSLAB
	if (ctx->failslab_set)
		failslab_kunit_ignore_gfp_reclaim(ctx->failslab_saved);
#endif
	if (ctx->input >= 0 && test->status == KUNIT_FAILURE)
		kunit_err(test, "failed at input %d of seed %llu\n", ctx->input, seed);
	if (ctx->dev)
		root_device_unregister(ctx->dev);
	thermal_of_test_unregister(test);
	for (i = 0; i < ARRAY_SIZE(ctx->cdev); i++)
		thermal_of_test_del_cdev(test, i);
	KUNIT_EXPECT_EQ_MSG(test, ctx->criticals, 0, "a critical trip was crossed");

	if (ctx->extra_ovcs_id) {
		ret = of_overlay_remove(&ctx->extra_ovcs_id);
		KUNIT_EXPECT_EQ(test, ret, 0);
	}
	if (ctx->ovcs_id) {
		ret = of_overlay_remove(&ctx->ovcs_id);
		KUNIT_EXPECT_EQ(test, ret, 0);
	}
}

/*
 * Platforms booted without a device tree (x86 under QEMU) have no root
 * node for the overlays.  Unflatten an empty tree and make it the root,
 * the way drivers/of/unittest.c does.  It stays for the life of the
 * kernel, so the blob is copied out of the module.
 */
static int thermal_of_test_suite_init(struct kunit_suite *suite)
{
	size_t size = __dtb_thermal_of_test_root_end - __dtb_thermal_of_test_root_begin;
	struct device_node *root = NULL;
	void *blob;

	if (thermal_of_test_keep(&thermal_of_test_zones, __dtb_thermal_of_test_zones_begin,
				 __dtb_thermal_of_test_zones_end) ||
	    thermal_of_test_keep(&thermal_of_test_nosensor,
				 __dtb_thermal_of_test_nosensor_begin,
				 __dtb_thermal_of_test_nosensor_end) ||
	    thermal_of_test_keep(&thermal_of_test_badcells,
				 __dtb_thermal_of_test_badcells_begin,
				 __dtb_thermal_of_test_badcells_end))
		return -ENOMEM;
	if (of_root)
		return 0;

	blob = kmemdup(__dtb_thermal_of_test_root_begin, size, GFP_KERNEL);
	if (!blob)
		return -ENOMEM;

	if (!of_fdt_unflatten_tree(blob, NULL, &root) || !root) {
		kfree(blob);
		return -ENOMEM;
	}

	/*
	 * The tree stays for the kernel's life (x86 has no other) and its
	 * properties point into the blob: kept, and told to kmemleak, which
	 * the debug variant's KUnit boot scans afterwards.
	 */
	kmemleak_not_leak(blob);
	of_root = root;
	return __of_attach_node_sysfs(root);
}

static struct kunit_case thermal_of_test_cases[] = {
	KUNIT_CASE(thermal_of_test_zone_by_sensor_cells0),
	KUNIT_CASE(thermal_of_test_zone_by_sensor_cells0_other_id),
	KUNIT_CASE(thermal_of_test_zone_by_sensor_id),
	KUNIT_CASE(thermal_of_test_zone_not_found),
	KUNIT_CASE(thermal_of_test_zone_without_sensors),
	KUNIT_CASE(thermal_of_test_zone_bad_sensor_cells),
	KUNIT_CASE(thermal_of_test_trip_types),
	KUNIT_CASE(thermal_of_test_trip_ops),
	KUNIT_CASE(thermal_of_test_trip_attr_modes),
	KUNIT_CASE(thermal_of_test_trip_negative_temperature),
	KUNIT_CASE(thermal_of_test_trip_requires_temperature),
	KUNIT_CASE(thermal_of_test_trip_requires_hysteresis),
	KUNIT_CASE(thermal_of_test_trip_bad_type),
	KUNIT_CASE(thermal_of_test_crit_temp),
	KUNIT_CASE(thermal_of_test_zone_without_trips),
	KUNIT_CASE(thermal_of_test_polling_delays),
	KUNIT_CASE(thermal_of_test_polling_delays_default),
	KUNIT_CASE(thermal_of_test_polling_delay_malformed),
	KUNIT_CASE(thermal_of_test_coefficients),
	KUNIT_CASE(thermal_of_test_coefficients_default),
	KUNIT_CASE_PARAM(thermal_of_test_cooling_map,
			 thermal_of_test_map_gen_params),
	KUNIT_CASE(thermal_of_test_cooling_map_unbind),
	KUNIT_CASE(thermal_of_test_cooling_map_without_trip),
	KUNIT_CASE(thermal_of_test_cooling_map_one_cell),
	KUNIT_CASE_PARAM(thermal_of_test_bind_ops, thermal_of_test_bind_gen_params),
	KUNIT_CASE(thermal_of_test_unregister_removes_zone),
	KUNIT_CASE(thermal_of_test_enable_error),
	KUNIT_CASE(thermal_of_test_devm_release_with_device),
	KUNIT_CASE(thermal_of_test_devm_unregister),
	KUNIT_CASE(thermal_of_test_devm_error),
	KUNIT_CASE(thermal_of_test_devm_nomem),
	KUNIT_CASE(thermal_of_test_zone_node_refcount),
	KUNIT_CASE(thermal_of_test_empty_trips_refcount),
	KUNIT_CASE(thermal_of_test_cooling_map_trip_refcount),
	KUNIT_CASE_PARAM(thermal_of_test_bad_input, tof_cases_gen_params),
	KUNIT_CASE(thermal_of_test_bad_input_random),
	KUNIT_CASE(thermal_of_test_zone_node_removed),
	KUNIT_CASE(thermal_of_test_zones_node_missing),
	KUNIT_CASE(thermal_of_test_register_fail_nth),
	{}
};

static struct kunit_suite thermal_of_test_suite = {
	.name = "thermal_of",
	.suite_init = thermal_of_test_suite_init,
	.init = thermal_of_test_init,
	.exit = thermal_of_test_exit,
	.test_cases = thermal_of_test_cases,
};

kunit_test_suites(&thermal_of_test_suite);

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
MODULE_DESCRIPTION("KUnit tests for the thermal device tree parser");
MODULE_LICENSE("GPL");
