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
 */

#include <kunit/test.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/kobject.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/of.h>
#include <linux/of_fdt.h>
#include <linux/slab.h>
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
	struct thermal_zone_device *tz;
	struct thermal_cooling_device *cdev[2];
	struct device *dev;
	int criticals;
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
	*temp = THERMAL_OF_TEST_TEMP;
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

static int thermal_of_test_apply(const u8 *begin, const u8 *end, int *ovcs_id)
{
	return of_overlay_fdt_apply(begin, end - begin, ovcs_id);
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
	};
	static const char * const types[] = {
		"thermal-of-test-0",
		"thermal-of-test-1",
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

	KUNIT_ASSERT_EQ(test, thermal_of_test_apply(__dtb_thermal_of_test_nosensor_begin,
						    __dtb_thermal_of_test_nosensor_end,
						    &ctx->extra_ovcs_id), 0);

	KUNIT_EXPECT_EQ(test, PTR_ERR(thermal_of_test_register(test, ctx->sens1, TZ_NONE)),
			-EINVAL);
}

/* A sensor without #thermal-sensor-cells makes the lookup fail with -EINVAL */
static void thermal_of_test_zone_bad_sensor_cells(struct kunit *test)
{
	struct thermal_of_test_ctx *ctx = test->priv;

	KUNIT_ASSERT_EQ(test, thermal_of_test_apply(__dtb_thermal_of_test_badcells_begin,
						    __dtb_thermal_of_test_badcells_end,
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
 * A cooling device registered after the zone is bound to the trip of
 * its map, with lower = first cell, upper = second cell and the
 * "contribution" as weight.
 */
static void thermal_of_test_cooling_map_bind(struct kunit *test)
{
	struct thermal_of_test_ctx *ctx = test->priv;
	struct thermal_of_test_binding b = { };
	struct thermal_cooling_device *cdev;
	struct thermal_zone_device *tz;

	tz = thermal_of_test_register(test, ctx->sens1, TZ_FULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tz);
	cdev = thermal_of_test_add_cdev(test, 0);

	KUNIT_ASSERT_EQ(test, thermal_of_test_bindings(tz, cdev, &b), 1);
	KUNIT_EXPECT_EQ(test, b.trip_temp, 50000);
	KUNIT_EXPECT_EQ(test, b.lower, 1UL);
	KUNIT_EXPECT_EQ(test, b.upper, 3UL);
	KUNIT_EXPECT_EQ(test, b.weight, 64U);
}

/* Without "contribution" the weight is THERMAL_WEIGHT_DEFAULT */
static void thermal_of_test_cooling_map_default_weight(struct kunit *test)
{
	struct thermal_of_test_ctx *ctx = test->priv;
	struct thermal_of_test_binding b = { };
	struct thermal_cooling_device *cdev;
	struct thermal_zone_device *tz;

	tz = thermal_of_test_register(test, ctx->sens1, TZ_FULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tz);
	cdev = thermal_of_test_add_cdev(test, 1);

	KUNIT_ASSERT_EQ(test, thermal_of_test_bindings(tz, cdev, &b), 1);
	KUNIT_EXPECT_EQ(test, b.trip_temp, 40000);
	KUNIT_EXPECT_EQ(test, b.lower, 0UL);
	KUNIT_EXPECT_EQ(test, b.upper, 2UL);
	KUNIT_EXPECT_EQ(test, b.weight, (unsigned int)THERMAL_WEIGHT_DEFAULT);
}

/* A zone registered after the cooling device binds it just the same */
static void thermal_of_test_cooling_map_bind_cdev_first(struct kunit *test)
{
	struct thermal_of_test_ctx *ctx = test->priv;
	struct thermal_of_test_binding b = { };
	struct thermal_cooling_device *cdev;
	struct thermal_zone_device *tz;

	cdev = thermal_of_test_add_cdev(test, 0);
	tz = thermal_of_test_register(test, ctx->sens1, TZ_FULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tz);

	KUNIT_ASSERT_EQ(test, thermal_of_test_bindings(tz, cdev, &b), 1);
	KUNIT_EXPECT_EQ(test, b.trip_temp, 50000);
	KUNIT_EXPECT_EQ(test, b.lower, 1UL);
	KUNIT_EXPECT_EQ(test, b.upper, 3UL);
	KUNIT_EXPECT_EQ(test, b.weight, 64U);
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
 * Regression test for the zone node reference taken by the zone lookup:
 * register/unregister, and a registration that fails after the lookup,
 * leave the zone and sensor node reference counts as they were.
 */
static void thermal_of_test_zone_node_refcount(struct kunit *test)
{
	struct thermal_of_test_ctx *ctx = test->priv;
	struct device_node *zone, *bad;
	unsigned int zone_refs, bad_refs, sensor_refs;
	struct thermal_zone_device *tz;

	zone = thermal_of_test_node(test, "/thermal-zones/tz-defaults");
	bad = thermal_of_test_node(test, "/thermal-zones/tz-no-hyst");
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
 * as they were.
 */
static void thermal_of_test_cooling_map_trip_refcount(struct kunit *test)
{
	struct thermal_of_test_ctx *ctx = test->priv;
	struct device_node *passive, *active;
	unsigned int passive_refs, active_refs;
	struct thermal_zone_device *tz;

	passive = thermal_of_test_node(test, "/thermal-zones/tz-full/trips/trip-passive");
	active = thermal_of_test_node(test, "/thermal-zones/tz-full/trips/trip-active");
	passive_refs = thermal_of_test_refs(passive);
	active_refs = thermal_of_test_refs(active);

	tz = thermal_of_test_register(test, ctx->sens1, TZ_FULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tz);
	thermal_of_test_add_cdev(test, 0);
	thermal_of_test_del_cdev(test, 0);
	thermal_of_test_add_cdev(test, 1);
	thermal_of_test_unregister(test);
	thermal_of_test_del_cdev(test, 1);

	KUNIT_EXPECT_EQ(test, thermal_of_test_refs(passive), passive_refs);
	KUNIT_EXPECT_EQ(test, thermal_of_test_refs(active), active_refs);
}

static int thermal_of_test_init(struct kunit *test)
{
	struct thermal_of_test_ctx *ctx;
	int ret;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	test->priv = ctx;

	ret = thermal_of_test_apply(__dtb_thermal_of_test_zones_begin,
				    __dtb_thermal_of_test_zones_end, &ctx->ovcs_id);
	KUNIT_ASSERT_EQ_MSG(test, ret, 0, "zones overlay not applied");

	ctx->sens0 = thermal_of_test_node(test, "/thermal-of-test/sensor-0");
	ctx->sens1 = thermal_of_test_node(test, "/thermal-of-test/sensor-1");
	ctx->sens2 = thermal_of_test_node(test, "/thermal-of-test/sensor-2");

	return 0;
}

/* runs after a failed init or an aborted case too, so check everything */
static void thermal_of_test_exit(struct kunit *test)
{
	struct thermal_of_test_ctx *ctx = test->priv;
	int ret;

	if (!ctx)
		return;

	if (ctx->dev)
		root_device_unregister(ctx->dev);
	thermal_of_test_unregister(test);
	thermal_of_test_del_cdev(test, 0);
	thermal_of_test_del_cdev(test, 1);
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

	if (of_root)
		return 0;

	blob = kmemdup(__dtb_thermal_of_test_root_begin, size, GFP_KERNEL);
	if (!blob)
		return -ENOMEM;

	if (!of_fdt_unflatten_tree(blob, NULL, &root) || !root) {
		kfree(blob);
		return -ENOMEM;
	}

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
	KUNIT_CASE(thermal_of_test_cooling_map_bind),
	KUNIT_CASE(thermal_of_test_cooling_map_default_weight),
	KUNIT_CASE(thermal_of_test_cooling_map_bind_cdev_first),
	KUNIT_CASE(thermal_of_test_cooling_map_unbind),
	KUNIT_CASE(thermal_of_test_cooling_map_without_trip),
	KUNIT_CASE(thermal_of_test_unregister_removes_zone),
	KUNIT_CASE(thermal_of_test_devm_release_with_device),
	KUNIT_CASE(thermal_of_test_devm_unregister),
	KUNIT_CASE(thermal_of_test_devm_error),
	KUNIT_CASE(thermal_of_test_zone_node_refcount),
	KUNIT_CASE(thermal_of_test_empty_trips_refcount),
	KUNIT_CASE(thermal_of_test_cooling_map_trip_refcount),
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
