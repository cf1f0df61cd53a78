// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the Microchip EMC2301/2/3/5 fan controller driver
 * (drivers/hwmon/emc2305.c).
 *
 * The driver talks SMBus directly (i2c_smbus_read/write_byte_data and
 * read_word_swapped), so each case registers a mock I2C adapter whose
 * smbus_xfer() serves a 256-byte register array and counts accesses per
 * register.  A case sets the manufacturer and product ID registers, then
 * instantiates an "emc2305" client with i2c_new_client_device(), which
 * runs the driver's real probe against the mock.
 *
 * hwmon attributes are reached the way sysfs reaches them: by name in the
 * attribute groups of the hwmon device below the client, calling show()
 * and store().  The driver's cooling devices are found the way a thermal
 * zone finds them: the case registers a thermal zone of its own whose
 * bind() callback is offered every cooling device as it registers; it
 * records the emc2305 ones.  Their max_state and cur_state attributes are
 * then driven through the cooling device's own sysfs callbacks, i.e.
 * through the thermal core, not by calling the driver's ops directly.
 *
 * With CONFIG_THERMAL the driver keeps PWM as a cooling state of
 * 0..max_state (10 by default): a pwm write becomes a floor state
 * round(pwm * max / 255), the chip is programmed with round(state * 255 /
 * max), and a thermal request below the floor is raised to it.  The cases
 * assert that model; the Kconfig symbol for this test depends on THERMAL.
 *
 * Register addresses and IDs come from the EMC2301/2/3/5 datasheet
 * (Microchip, "Register Set" table and register descriptions): Drive Fail
 * Status 27h, Fan N Setting 30h + 10h * (N - 1), Fan N Minimum Drive
 * 38h + 10h * (N - 1), Fan N TACH Reading 3Eh/3Fh + 10h * (N - 1),
 * Product ID FDh (EMC2305 34h, EMC2303 35h, EMC2302 36h, EMC2301 37h),
 * Manufacturer ID FEh (5Dh).
 *
 * Lifecycle: init() registers the adapter and the thermal zone; a case
 * probes; exit() unregisters client, zone and adapter, whichever exist.
 */

#include <linux/build_bug.h>
#include <linux/kmod.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/platform_data/emc2305.h>
#include <linux/thermal.h>

#include "hwmon_test_regfile.h"

#define EMC2305_TEST_ADDR	0x4d

#define DS_DRIVE_FAIL		0x27
#define DS_FAN_SETTING(n)	(0x30 + 0x10 * (n))
#define DS_FAN_MIN_DRIVE(n)	(0x38 + 0x10 * (n))
#define DS_TACH_HIGH(n)		(0x3e + 0x10 * (n))
#define DS_PRODUCT_ID		0xfd
#define DS_MANUFACTURER_ID	0xfe

#define DS_ID_EMC2305		0x34
#define DS_ID_EMC2303		0x35
#define DS_ID_EMC2302		0x36
#define DS_ID_EMC2301		0x37
#define DS_ID_MICROCHIP		0x5d

#define EMC2305_TEST_MAX_CDEV	5

struct emc2305_ctx {
	struct hwmon_test_regfile mock;	/* first: hwmon_test_regs() */
	struct thermal_zone_device_ops tz_ops;
	struct thermal_zone_params tzp;
	struct thermal_zone_device *tz;
	struct emc2305_platform_data pdata;
	struct thermal_cooling_device *cdev[EMC2305_TEST_MAX_CDEV];
	int ncdev;
};

static_assert(offsetof(struct emc2305_ctx, mock) == 0);

/* Offered every cooling device that registers while the zone exists. */
static int emc2305_test_tz_bind(struct thermal_zone_device *tz,
				struct thermal_cooling_device *cdev)
{
	struct emc2305_ctx *ctx = tz->devdata;

	if (strncmp(cdev->type, "emc2305_fan", strlen("emc2305_fan")))
		return 0;
	if (ctx->ncdev < EMC2305_TEST_MAX_CDEV)
		ctx->cdev[ctx->ncdev++] = cdev;
	return 0;
}

static int emc2305_test_tz_get_temp(struct thermal_zone_device *tz, int *temp)
{
	*temp = 25000;
	return 0;
}

static int emc2305_test_init(struct kunit *test)
{
	struct emc2305_ctx *ctx;
	int ret;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	test->priv = ctx;

	ret = hwmon_test_regfile_add(&ctx->mock, "kunit-emc2305",
				     EMC2305_TEST_ADDR, true);
	if (ret)
		return ret;

	/* A modular driver would otherwise race its udev-driven load. */
	if (IS_MODULE(CONFIG_SENSORS_EMC2305))
		request_module("emc2305");

	ctx->tz_ops.bind = emc2305_test_tz_bind;
	ctx->tz_ops.get_temp = emc2305_test_tz_get_temp;
	ctx->tzp.no_hwmon = true;
	ctx->tz = thermal_zone_device_register("kunit_emc2305", 0, 0, ctx,
					       &ctx->tz_ops, &ctx->tzp, 0, 0);
	if (IS_ERR(ctx->tz)) {
		ret = PTR_ERR(ctx->tz);
		ctx->tz = NULL;
		return ret;
	}
	return 0;
}

static void emc2305_test_exit(struct kunit *test)
{
	struct emc2305_ctx *ctx = test->priv;

	if (!ctx)
		return;
	hwmon_test_client_del(&ctx->mock);
	if (ctx->tz)
		thermal_zone_device_unregister(ctx->tz);
	hwmon_test_regfile_del(&ctx->mock);
}

/*
 * Instantiate the client with the given ID registers and optional
 * platform data.  Returns true if the driver bound; on success the hwmon
 * device has been looked up and the access counters restarted.
 */
static bool emc2305_test_probe(struct kunit *test, u8 vendor, u8 product,
			       const struct emc2305_platform_data *pdata)
{
	struct i2c_board_info info = {
		I2C_BOARD_INFO("emc2305", EMC2305_TEST_ADDR),
	};
	struct emc2305_ctx *ctx = test->priv;
	struct hwmon_test_regfile *m = &ctx->mock;
	int ret;

	m->regs[DS_MANUFACTURER_ID] = vendor;
	m->regs[DS_PRODUCT_ID] = product;
	if (pdata) {
		ctx->pdata = *pdata;
		info.platform_data = &ctx->pdata;
	}

	ret = hwmon_test_new_client(m, &info);
	KUNIT_ASSERT_GE(test, ret, 0);
	return ret;
}

static long emc2305_test_hwmon_read(struct kunit *test, const char *name)
{
	struct emc2305_ctx *ctx = test->priv;
	long val = -1;

	KUNIT_EXPECT_EQ_MSG(test, hwmon_test_show(test, ctx->mock.hwmon, name,
						  &val), 0, "%s", name);
	return val;
}

static int emc2305_test_hwmon_write(struct kunit *test, const char *name,
				    const char *str)
{
	struct emc2305_ctx *ctx = test->priv;

	return hwmon_test_store(test, ctx->mock.hwmon, name, str);
}

static int emc2305_test_cdev_write(struct kunit *test, int idx,
				   const char *str)
{
	struct emc2305_ctx *ctx = test->priv;

	KUNIT_ASSERT_LT(test, idx, ctx->ncdev);
	return hwmon_test_store(test, &ctx->cdev[idx]->device, "cur_state",
				str);
}

static long emc2305_test_cdev_read(struct kunit *test, int idx,
				   const char *name)
{
	struct emc2305_ctx *ctx = test->priv;
	long val = -1;

	KUNIT_ASSERT_LT(test, idx, ctx->ncdev);
	KUNIT_EXPECT_EQ(test, hwmon_test_show(test, &ctx->cdev[idx]->device,
					      name, &val), 0);
	return val;
}

/* Fan Setting registers of channels 0..n-1 all hold @duty. */
static void emc2305_test_expect_settings(struct kunit *test, int n, u8 duty)
{
	struct emc2305_ctx *ctx = test->priv;
	int i;

	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ_MSG(test, ctx->mock.regs[DS_FAN_SETTING(i)],
				    duty, "fan%d setting", i + 1);
}

struct emc2305_id_case {
	const char *name;
	u8 product;
	int channels;
};

static const struct emc2305_id_case emc2305_id_cases[] = {
	{ "EMC2305", DS_ID_EMC2305, 5 },
	{ "EMC2303", DS_ID_EMC2303, 3 },
	{ "EMC2302", DS_ID_EMC2302, 2 },
	{ "EMC2301", DS_ID_EMC2301, 1 },
};

static void emc2305_id_desc(const struct emc2305_id_case *t, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s product id %#04x", t->name,
		 t->product);
}

/* Creates emc2305_id_gen_params() */
KUNIT_ARRAY_PARAM(emc2305_id, emc2305_id_cases, emc2305_id_desc);

/*
 * Every family member binds under the one "emc2305" name; the product ID
 * decides how many fan channels get attributes, and the probe programs
 * (minimum drive 0, setting 0) only the channels that exist.
 */
static void hwmon_emc2305_test_probe_product_id(struct kunit *test)
{
	const struct emc2305_id_case *t = test->param_value;
	struct emc2305_ctx *ctx = test->priv;
	static const char * const fmt[] = { "fan%d_input", "fan%d_fault",
					    "pwm%d" };
	char name[16];
	int ch, f;

	for (ch = 0; ch < 5; ch++)
		ctx->mock.regs[DS_FAN_SETTING(ch)] = 0xaa;

	KUNIT_ASSERT_TRUE_MSG(test, emc2305_test_probe(test, DS_ID_MICROCHIP,
						       t->product, NULL),
			      "%s did not bind", t->name);

	for (ch = 0; ch < 5; ch++) {
		bool present = ch < t->channels;

		for (f = 0; f < ARRAY_SIZE(fmt); f++) {
			snprintf(name, sizeof(name), fmt[f], ch + 1);
			KUNIT_EXPECT_EQ_MSG(test,
					    !!hwmon_test_find_attr(ctx->mock.hwmon, name),
					    present, "%s", name);
		}
		KUNIT_EXPECT_EQ_MSG(test,
				    ctx->mock.probe_writes[DS_FAN_MIN_DRIVE(ch)],
				    present ? 1 : 0, "fan%d min drive", ch + 1);
		KUNIT_EXPECT_EQ_MSG(test, ctx->mock.regs[DS_FAN_SETTING(ch)],
				    present ? 0x00 : 0xaa, "fan%d setting",
				    ch + 1);
	}
}

struct emc2305_bad_id_case {
	const char *name;
	u8 vendor;
	u8 product;
};

static const struct emc2305_bad_id_case emc2305_bad_id_cases[] = {
	{ "foreign vendor", 0x5c, DS_ID_EMC2305 },
	{ "no vendor", 0x00, DS_ID_EMC2301 },
	{ "unknown product 0x33", DS_ID_MICROCHIP, 0x33 },
	{ "unknown product 0x38", DS_ID_MICROCHIP, 0x38 },
};

static void emc2305_bad_id_desc(const struct emc2305_bad_id_case *t,
				char *desc)
{
	strscpy(desc, t->name, KUNIT_PARAM_DESC_SIZE);
}

/* Creates emc2305_bad_id_gen_params() */
KUNIT_ARRAY_PARAM(emc2305_bad_id, emc2305_bad_id_cases, emc2305_bad_id_desc);

/* Anything but Microchip's ID and a known product ID is not bound. */
static void hwmon_emc2305_test_probe_rejects_unknown(struct kunit *test)
{
	const struct emc2305_bad_id_case *t = test->param_value;
	struct emc2305_ctx *ctx = test->priv;

	KUNIT_EXPECT_FALSE(test, emc2305_test_probe(test, t->vendor,
						    t->product, NULL));
	KUNIT_EXPECT_EQ(test, ctx->ncdev, 0);
}

/*
 * TACH Reading (high byte at 3Eh + 10h * n, low byte next) holds a 13-bit
 * count in bits 15:3.  The datasheet's simplified equation for 2-pole
 * fans (5 edges, 32.768 kHz tach clock) is RPM = 3,932,160 * m / COUNT;
 * the driver uses m = 2, divides before it multiplies, and reports 0 when
 * 3,932,160 / COUNT is 480 or less.  The other fans read 1000 counts, so
 * a channel mix-up shows up as 7864.
 */
struct emc2305_tach_case {
	const char *name;
	int channel;
	u8 high;
	u8 low;
	long rpm;
};

static const struct emc2305_tach_case emc2305_tach_cases[] = {
	{ "fan1 reading 0", 0, 0x00, 0x00, 0 },
	{ "fan1 count 8191", 0, 0xff, 0xf8, 0 },
	{ "fan1 count 8190", 0, 0xff, 0xf0, 0 },
	{ "fan1 count 8000", 0, 0xfa, 0x00, 982 },
	{ "fan1 count 4096", 0, 0x80, 0x00, 1920 },
	{ "fan1 count 1024", 0, 0x20, 0x00, 7680 },
	{ "fan1 unused bits ignored", 0, 0x20, 0x07, 7680 },
	{ "fan1 count 1", 0, 0x00, 0x08, 7864320 },
	{ "fan2 count 4096", 1, 0x80, 0x00, 1920 },
	{ "fan3 count 1024", 2, 0x20, 0x00, 7680 },
	{ "fan5 count 8000", 4, 0xfa, 0x00, 982 },
};

static void emc2305_tach_desc(const struct emc2305_tach_case *t, char *desc)
{
	strscpy(desc, t->name, KUNIT_PARAM_DESC_SIZE);
}

/* Creates emc2305_tach_gen_params() */
KUNIT_ARRAY_PARAM(emc2305_tach, emc2305_tach_cases, emc2305_tach_desc);

static void hwmon_emc2305_test_fan_input(struct kunit *test)
{
	const struct emc2305_tach_case *t = test->param_value;
	struct emc2305_ctx *ctx = test->priv;
	u8 *regs = ctx->mock.regs;
	char name[16];
	int ch;

	KUNIT_ASSERT_TRUE(test, emc2305_test_probe(test, DS_ID_MICROCHIP,
						   DS_ID_EMC2305, NULL));
	for (ch = 0; ch < 5; ch++) {
		/* 1000 counts = 0x1f40 */
		regs[DS_TACH_HIGH(ch)] = 0x1f;
		regs[DS_TACH_HIGH(ch) + 1] = 0x40;
	}
	regs[DS_TACH_HIGH(t->channel)] = t->high;
	regs[DS_TACH_HIGH(t->channel) + 1] = t->low;

	snprintf(name, sizeof(name), "fan%d_input", t->channel + 1);
	KUNIT_EXPECT_EQ(test, emc2305_test_hwmon_read(test, name), t->rpm);
	KUNIT_EXPECT_EQ(test, ctx->mock.reads[DS_TACH_HIGH(t->channel)], 1);
}

/* fanN_fault is bit N-1 of Drive Fail Status (27h). */
static void hwmon_emc2305_test_fan_fault(struct kunit *test)
{
	struct emc2305_ctx *ctx = test->priv;
	char name[16];
	int ch;

	KUNIT_ASSERT_TRUE(test, emc2305_test_probe(test, DS_ID_MICROCHIP,
						   DS_ID_EMC2305, NULL));
	for (ch = 0; ch < 5; ch++) {
		snprintf(name, sizeof(name), "fan%d_fault", ch + 1);
		ctx->mock.regs[DS_DRIVE_FAIL] = BIT(ch);
		KUNIT_EXPECT_EQ_MSG(test, emc2305_test_hwmon_read(test, name),
				    1, "%s", name);
		ctx->mock.regs[DS_DRIVE_FAIL] = (u8)~BIT(ch);
		KUNIT_EXPECT_EQ_MSG(test, emc2305_test_hwmon_read(test, name),
				    0, "%s", name);
	}
}

/* pwmN reads back Fan N Setting. */
static void hwmon_emc2305_test_pwm_read(struct kunit *test)
{
	struct emc2305_ctx *ctx = test->priv;
	char name[16];
	int ch;

	KUNIT_ASSERT_TRUE(test, emc2305_test_probe(test, DS_ID_MICROCHIP,
						   DS_ID_EMC2305, NULL));
	for (ch = 0; ch < 5; ch++)
		ctx->mock.regs[DS_FAN_SETTING(ch)] = 0x11 * (ch + 1);
	for (ch = 0; ch < 5; ch++) {
		snprintf(name, sizeof(name), "pwm%d", ch + 1);
		KUNIT_EXPECT_EQ(test, emc2305_test_hwmon_read(test, name),
				0x11 * (ch + 1));
	}
}

/*
 * A pwm write is quantised to the 11 cooling states and, with one common
 * PWM (no platform data), programmed into every fan the chip has (two
 * on an EMC2302) and no other register.
 */
struct emc2305_pwm_case {
	const char *attr;
	const char *input;
	u8 duty;
};

static const struct emc2305_pwm_case emc2305_pwm_cases[] = {
	{ "pwm1", "0", 0 },
	{ "pwm1", "26", 26 },
	{ "pwm1", "100", 102 },
	{ "pwm1", "128", 128 },
	{ "pwm1", "200", 204 },
	{ "pwm1", "255", 255 },
	{ "pwm2", "77", 77 },
};

static void emc2305_pwm_desc(const struct emc2305_pwm_case *t, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s=%s", t->attr, t->input);
}

/* Creates emc2305_pwm_gen_params() */
KUNIT_ARRAY_PARAM(emc2305_pwm, emc2305_pwm_cases, emc2305_pwm_desc);

static void hwmon_emc2305_test_pwm_write(struct kunit *test)
{
	const struct emc2305_pwm_case *t = test->param_value;
	struct emc2305_ctx *ctx = test->priv;
	unsigned int reg, others = 0;

	KUNIT_ASSERT_TRUE(test, emc2305_test_probe(test, DS_ID_MICROCHIP,
						   DS_ID_EMC2302, NULL));
	KUNIT_ASSERT_EQ(test, emc2305_test_hwmon_write(test, t->attr,
						       t->input), 0);
	emc2305_test_expect_settings(test, 2, t->duty);
	KUNIT_EXPECT_EQ(test, ctx->mock.writes[DS_FAN_SETTING(0)], 1);
	KUNIT_EXPECT_EQ(test, ctx->mock.writes[DS_FAN_SETTING(1)], 1);
	for (reg = 0; reg < ARRAY_SIZE(ctx->mock.writes); reg++)
		if (reg != DS_FAN_SETTING(0) && reg != DS_FAN_SETTING(1))
			others += ctx->mock.writes[reg];
	KUNIT_EXPECT_EQ(test, others, 0);
}

/*
 * A pwm write outside 0..255 is refused and programs nothing, as it is
 * without CONFIG_THERMAL.
 */
static void hwmon_emc2305_test_pwm_write_range(struct kunit *test)
{
	struct emc2305_ctx *ctx = test->priv;

	KUNIT_ASSERT_TRUE(test, emc2305_test_probe(test, DS_ID_MICROCHIP,
						   DS_ID_EMC2301, NULL));
	KUNIT_EXPECT_EQ(test, emc2305_test_hwmon_write(test, "pwm1", "256"),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, emc2305_test_hwmon_write(test, "pwm1", "1000"),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, emc2305_test_hwmon_write(test, "pwm1", "-1"),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ctx->mock.writes[DS_FAN_SETTING(0)], 0);
	KUNIT_EXPECT_EQ(test, emc2305_test_cdev_read(test, 0, "cur_state"), 0);
}

/*
 * Root's write to a read-only attribute (fanN_input, fanN_fault: 0444)
 * passes sysfs's permission check (CAP_DAC_OVERRIDE), and the hwmon core
 * hands it to emc2305_write() as it does any store: refused with
 * -EOPNOTSUPP, the errno of an attribute the driver does not write, and
 * nothing goes to the chip.
 */
static void hwmon_emc2305_test_read_only_write(struct kunit *test)
{
	static const char * const names[] = {
		"fan1_input", "fan1_fault", "fan5_input", "fan5_fault",
	};
	u8 *before;
	int i;

	KUNIT_ASSERT_TRUE(test, emc2305_test_probe(test, DS_ID_MICROCHIP,
						   DS_ID_EMC2305, NULL));
	before = hwmon_test_snapshot(test);
	for (i = 0; i < ARRAY_SIZE(names); i++)
		KUNIT_EXPECT_EQ_MSG(test, emc2305_test_hwmon_write(test, names[i], "0"),
				    -EOPNOTSUPP, "%s", names[i]);
	hwmon_test_expect_file(test, before, NULL, 0, "read-only attributes written");
}

/*
 * Guards 364ffd2537c4 ("hwmon: (emc2305) fix pwm never being able to set
 * lower"): a pwm write must not count as a thermal request, or every
 * later, lower pwm write is taken for a floor below the thermal state and
 * silently dropped.
 */
static void hwmon_emc2305_test_pwm_can_go_lower(struct kunit *test)
{
	KUNIT_ASSERT_TRUE(test, emc2305_test_probe(test, DS_ID_MICROCHIP,
						   DS_ID_EMC2303, NULL));
	KUNIT_ASSERT_EQ(test, emc2305_test_hwmon_write(test, "pwm1", "255"), 0);
	emc2305_test_expect_settings(test, 3, 255);
	KUNIT_ASSERT_EQ(test, emc2305_test_hwmon_write(test, "pwm1", "128"), 0);
	emc2305_test_expect_settings(test, 3, 128);
	KUNIT_ASSERT_EQ(test, emc2305_test_hwmon_write(test, "pwm1", "0"), 0);
	emc2305_test_expect_settings(test, 3, 0);
	KUNIT_EXPECT_EQ(test, emc2305_test_hwmon_read(test, "pwm1"), 0);
}

/*
 * The hwmon pwm is a floor for the thermal state: a pwm below the current
 * thermal state is only remembered, a thermal request below the pwm is
 * raised to it.
 */
static void hwmon_emc2305_test_pwm_floor_for_thermal(struct kunit *test)
{
	struct emc2305_ctx *ctx = test->priv;

	KUNIT_ASSERT_TRUE(test, emc2305_test_probe(test, DS_ID_MICROCHIP,
						   DS_ID_EMC2302, NULL));
	KUNIT_ASSERT_EQ(test, ctx->ncdev, 1);

	KUNIT_ASSERT_EQ(test, emc2305_test_cdev_write(test, 0, "8"), 0);
	emc2305_test_expect_settings(test, 2, 204);

	/* pwm 51 = state 2 < 8: remembered, not programmed */
	KUNIT_ASSERT_EQ(test, emc2305_test_hwmon_write(test, "pwm1", "51"), 0);
	emc2305_test_expect_settings(test, 2, 204);
	KUNIT_EXPECT_EQ(test, emc2305_test_cdev_read(test, 0, "cur_state"), 8);

	/* thermal asks for 0, gets the floor 2 */
	KUNIT_ASSERT_EQ(test, emc2305_test_cdev_write(test, 0, "0"), 0);
	emc2305_test_expect_settings(test, 2, 51);
	KUNIT_EXPECT_EQ(test, emc2305_test_cdev_read(test, 0, "cur_state"), 2);

	/* above the floor thermal wins */
	KUNIT_ASSERT_EQ(test, emc2305_test_cdev_write(test, 0, "3"), 0);
	emc2305_test_expect_settings(test, 2, 77);
	KUNIT_EXPECT_EQ(test, emc2305_test_cdev_read(test, 0, "cur_state"), 3);
}

/*
 * Cooling devices: one common "emc2305_fan" without platform data, one
 * "emc2305_fanN" per channel with pwm_separate; max_state is 10 unless
 * platform data sets 1..10, anything else fails the probe.
 */
struct emc2305_cdev_case {
	const char *name;
	bool use_pdata;
	struct emc2305_platform_data pdata;
	bool binds;
	int ncdev;
	long max_state;
};

static const struct emc2305_cdev_case emc2305_cdev_cases[] = {
	{ "default", false, {}, true, 1, 10 },
	{ "common max 4", true, { .max_state = 4, .pwm_num = 2 }, true, 1, 4 },
	{ "separate max 10", true,
	  { .max_state = 10, .pwm_num = 3, .pwm_separate = true }, true, 3, 10 },
	{ "max 1", true, { .max_state = 1, .pwm_num = 1 }, true, 1, 1 },
	{ "max 0 rejected", true, { .max_state = 0, .pwm_num = 1 }, false, 0,
	  0 },
	{ "max 11 rejected", true, { .max_state = 11, .pwm_num = 1 }, false, 0,
	  0 },
	{ "pwm_num 6 rejected", true, { .max_state = 10, .pwm_num = 6 }, false,
	  0, 0 },
};

static void emc2305_cdev_desc(const struct emc2305_cdev_case *t, char *desc)
{
	strscpy(desc, t->name, KUNIT_PARAM_DESC_SIZE);
}

/* Creates emc2305_cdev_gen_params() */
KUNIT_ARRAY_PARAM(emc2305_cdev, emc2305_cdev_cases, emc2305_cdev_desc);

static void hwmon_emc2305_test_cooling_max_state(struct kunit *test)
{
	const struct emc2305_cdev_case *t = test->param_value;
	struct emc2305_ctx *ctx = test->priv;
	char type[16];
	int i;

	KUNIT_ASSERT_EQ(test, emc2305_test_probe(test, DS_ID_MICROCHIP,
						 DS_ID_EMC2305,
						 t->use_pdata ? &t->pdata :
						 NULL), t->binds);
	if (!t->binds)
		return;

	KUNIT_ASSERT_EQ(test, ctx->ncdev, t->ncdev);
	for (i = 0; i < ctx->ncdev; i++) {
		if (t->pdata.pwm_separate)
			snprintf(type, sizeof(type), "emc2305_fan%d", i + 1);
		else
			strscpy(type, "emc2305_fan", sizeof(type));
		KUNIT_EXPECT_STREQ(test, ctx->cdev[i]->type, type);
		KUNIT_EXPECT_EQ(test,
				emc2305_test_cdev_read(test, i, "max_state"),
				t->max_state);
	}

	/* The top state is full drive, one more is refused. */
	snprintf(type, sizeof(type), "%ld", t->max_state);
	KUNIT_EXPECT_EQ(test, emc2305_test_cdev_write(test, 0, type), 0);
	KUNIT_EXPECT_EQ(test, ctx->mock.regs[DS_FAN_SETTING(0)], 255);
	snprintf(type, sizeof(type), "%ld", t->max_state + 1);
	KUNIT_EXPECT_EQ(test, emc2305_test_cdev_write(test, 0, type), -EINVAL);
}

/*
 * With pwm_separate each channel has its own minimum: the probe writes it
 * to Fan N Minimum Drive and starts Fan N Setting there, and a pwm or
 * cooling-state write touches only its own channel.
 */
static void hwmon_emc2305_test_separate_pwm_min(struct kunit *test)
{
	static const struct emc2305_platform_data pdata = {
		.max_state = 10,
		.pwm_num = 3,
		.pwm_separate = true,
		.pwm_min = { 51, 102, 153 },
	};
	struct emc2305_ctx *ctx = test->priv;
	struct hwmon_test_regfile *m = &ctx->mock;
	int ch;

	KUNIT_ASSERT_TRUE(test, emc2305_test_probe(test, DS_ID_MICROCHIP,
						   DS_ID_EMC2305, &pdata));
	for (ch = 0; ch < 3; ch++) {
		KUNIT_EXPECT_EQ(test, m->regs[DS_FAN_MIN_DRIVE(ch)],
				pdata.pwm_min[ch]);
		KUNIT_EXPECT_EQ(test, m->regs[DS_FAN_SETTING(ch)],
				pdata.pwm_min[ch]);
	}
	KUNIT_EXPECT_EQ(test, ctx->mock.probe_writes[DS_FAN_MIN_DRIVE(3)], 0);
	KUNIT_EXPECT_EQ(test, ctx->mock.probe_writes[DS_FAN_SETTING(3)], 0);
	KUNIT_EXPECT_EQ(test, ctx->mock.probe_writes[DS_FAN_MIN_DRIVE(4)], 0);

	KUNIT_ASSERT_EQ(test, emc2305_test_hwmon_write(test, "pwm2", "255"), 0);
	KUNIT_EXPECT_EQ(test, m->regs[DS_FAN_SETTING(0)], 51);
	KUNIT_EXPECT_EQ(test, m->regs[DS_FAN_SETTING(1)], 255);
	KUNIT_EXPECT_EQ(test, m->regs[DS_FAN_SETTING(2)], 153);

	KUNIT_ASSERT_EQ(test, ctx->ncdev, 3);
	KUNIT_ASSERT_EQ(test, emc2305_test_cdev_write(test, 2, "10"), 0);
	KUNIT_EXPECT_EQ(test, m->regs[DS_FAN_SETTING(0)], 51);
	KUNIT_EXPECT_EQ(test, m->regs[DS_FAN_SETTING(1)], 255);
	KUNIT_EXPECT_EQ(test, m->regs[DS_FAN_SETTING(2)], 255);
}

/*
 * Issue 15, seeded bad input: every writable attribute of the device
 * (pwm[1-5]) and of its cooling devices (cur_state), at, just inside and
 * just outside the documented range on both sides, huge and malformed,
 * and a seeded batch of random values.  An accepted value must program
 * the Fan N Setting registers (30h + 10h * (N - 1); datasheet: drive =
 * value / 255) the driver's thermal model names, and nothing else; a
 * refused one returns the errno and leaves every register as it was (no
 * bus write at all).  Documentation/hwmon/emc2305.rst: pwm[1-5] 0..255,
 * cur_state 0..max_state.
 *
 * With CONFIG_THERMAL (this suite's configuration) a pwm value is
 * quantised to a cooling state s = round(pwm * max_state / 255) and the
 * chip gets round(s * 255 / max_state), halves rounded up: not the value
 * written.  That is 6.1.192's model, not the document's "target duty
 * cycle (0..255)"; the rows below pin it.
 */

/*
 * The register file is @before with Fan N Setting = @duty for every
 * channel in @chans (a bit mask), and nothing else was written
 * (hwmon_test_expect_file()).  Returns the number of mismatches.
 */
static int emc2305_test_expect_file(struct kunit *test, const u8 *before,
				    unsigned int chans, u8 duty,
				    const char *what)
{
	struct hwmon_test_wr set[EMC2305_TEST_MAX_CDEV];
	int ch, nset = 0;

	for (ch = 0; ch < EMC2305_TEST_MAX_CDEV; ch++)
		if (chans & BIT(ch))
			set[nset++] = (struct hwmon_test_wr){
				DS_FAN_SETTING(ch), duty };
	return hwmon_test_expect_file(test, before, set, nset, what);
}

/* Configurations: the default one and three platform-data ones. */
struct emc2305_cfg {
	const char *name;
	u8 product;
	bool use_pdata;
	struct emc2305_platform_data pdata;
};

static const struct emc2305_cfg emc2305_cfgs[] = {
	{ "EMC2305 default", DS_ID_EMC2305, false, {} },
	{ "EMC2305 separate max 10", DS_ID_EMC2305, true,
	  { .max_state = 10, .pwm_num = 5, .pwm_separate = true } },
	{ "EMC2303 common max 4", DS_ID_EMC2303, true,
	  { .max_state = 4, .pwm_num = 3 } },
	{ "EMC2305 separate max 7 of 3", DS_ID_EMC2305, true,
	  { .max_state = 7, .pwm_num = 3, .pwm_separate = true } },
};

static void emc2305_test_probe_cfg(struct kunit *test,
				   const struct emc2305_cfg *cfg)
{
	KUNIT_ASSERT_TRUE_MSG(test, emc2305_test_probe(test, DS_ID_MICROCHIP,
						       cfg->product,
						       cfg->use_pdata ?
						       &cfg->pdata : NULL),
			      "%s did not bind", cfg->name);
}

/*
 * pwm rows: @pre is written to the same attribute first (NULL: none),
 * so that a refused value has something to leave alone and an accepted
 * one something to change.  @state is the cooling state the write leaves
 * (cur_state of the channel's cooling device), @duty what every fan of
 * the cooling device (all of them with one common PWM) is programmed
 * with.  The range check above 255 is 0202's (6.1.192 without it takes
 * 256 for state 10 and 1000 for state 39, duty 227).
 */
struct emc2305_pwm_range_case {
	int cfg;
	const char *attr;
	const char *pre;
	const char *input;
	int ret;
	long state;
	u8 duty;
	unsigned int chans;	/* the Fan Setting registers it programs */
};

static const struct emc2305_pwm_range_case emc2305_pwm_range_cases[] = {
	{ 0, "pwm1", "128", "-9223372036854775809", -ERANGE },
	{ 0, "pwm1", "128", "-9223372036854775808", -EINVAL },
	{ 0, "pwm1", "128", "-256", -EINVAL },
	{ 0, "pwm1", "128", "-1", -EINVAL },
	{ 0, "pwm1", "128", "0", 0, 0, 0, 0x1f },
	{ 0, "pwm1", "128", "1", 0, 0, 0, 0x1f },
	{ 0, "pwm1", "128", "12", 0, 0, 0, 0x1f },	/* 0.47: state 0 */
	{ 0, "pwm1", NULL, "13", 0, 1, 26, 0x1f },	/* 0.51: state 1 */
	{ 0, "pwm1", NULL, "127", 0, 5, 128, 0x1f },	/* 127.5 -> 128 */
	{ 0, "pwm1", NULL, "242", 0, 9, 230, 0x1f },	/* 229.5 -> 230 */
	{ 0, "pwm1", NULL, "243", 0, 10, 255, 0x1f },
	{ 0, "pwm1", NULL, "254", 0, 10, 255, 0x1f },
	{ 0, "pwm1", NULL, "255", 0, 10, 255, 0x1f },
	{ 0, "pwm1", "128", "256", -EINVAL },
	{ 0, "pwm1", "128", "1000", -EINVAL },
	{ 0, "pwm1", "128", "9223372036854775807", -EINVAL },
	{ 0, "pwm1", "128", "9223372036854775808", -ERANGE },
	{ 0, "pwm1", "128", "", -EINVAL },
	{ 0, "pwm1", "128", "half", -EINVAL },
	{ 0, "pwm5", NULL, "128", 0, 5, 128, 0x1f },
	{ 0, "pwm5", "128", "256", -EINVAL },
	{ 0, "pwm3", "128", "-1", -EINVAL },
	/* separate PWMs: a write touches its own channel only */
	{ 1, "pwm1", NULL, "255", 0, 10, 255, 0x01 },
	{ 1, "pwm3", NULL, "200", 0, 8, 204, 0x04 },	/* 7.84 -> 8 */
	{ 1, "pwm5", NULL, "1", 0, 0, 0, 0x10 },
	{ 1, "pwm5", "128", "256", -EINVAL },
	{ 1, "pwm2", "128", "-1", -EINVAL },
	/* max_state 4: s = round(pwm * 4 / 255), duty = round(s * 63.75) */
	{ 2, "pwm2", "255", "0", 0, 0, 0, 0x07 },
	{ 2, "pwm2", NULL, "31", 0, 0, 0, 0x07 },	/* 0.486 */
	{ 2, "pwm2", NULL, "32", 0, 1, 64, 0x07 },	/* 0.502 */
	{ 2, "pwm2", NULL, "159", 0, 2, 128, 0x07 },	/* 2.49 */
	{ 2, "pwm2", NULL, "160", 0, 3, 191, 0x07 },	/* 2.51, 191.25 */
	{ 2, "pwm2", NULL, "255", 0, 4, 255, 0x07 },
	{ 2, "pwm2", "255", "256", -EINVAL },
	/* max_state 7 on three of five channels */
	{ 3, "pwm3", NULL, "18", 0, 0, 0, 0x04 },	/* 0.494 */
	{ 3, "pwm3", NULL, "19", 0, 1, 36, 0x04 },	/* 0.52, 36.4 */
	{ 3, "pwm3", NULL, "128", 0, 4, 146, 0x04 },	/* 3.51, 145.7 */
	{ 3, "pwm3", "128", "256", -EINVAL },
};

static void emc2305_pwm_range_desc(const struct emc2305_pwm_range_case *t,
				   char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s: %s=%s%s%s -> %d",
		 emc2305_cfgs[t->cfg].name, t->attr,
		 t->input[0] ? t->input : "(empty)", t->pre ? " after " : "",
		 t->pre ? t->pre : "", t->ret);
}

/* Creates emc2305_pwm_range_gen_params() */
KUNIT_ARRAY_PARAM(emc2305_pwm_range, emc2305_pwm_range_cases,
		  emc2305_pwm_range_desc);

static void hwmon_emc2305_test_pwm_write_bounds(struct kunit *test)
{
	const struct emc2305_pwm_range_case *t = test->param_value;
	const struct emc2305_cfg *cfg = &emc2305_cfgs[t->cfg];
	struct emc2305_ctx *ctx = test->priv;
	int cdev = 0;
	long state_before;
	char what[96];
	u8 *before;

	emc2305_test_probe_cfg(test, cfg);
	if (cfg->pdata.pwm_separate)
		cdev = t->attr[3] - '1';
	KUNIT_ASSERT_LT(test, cdev, ctx->ncdev);
	if (t->pre)
		KUNIT_ASSERT_EQ(test, emc2305_test_hwmon_write(test, t->attr,
							       t->pre), 0);
	state_before = emc2305_test_cdev_read(test, cdev, "cur_state");
	before = hwmon_test_snapshot(test);
	snprintf(what, sizeof(what), "%s %s=%s", cfg->name, t->attr,
		 t->input);

	KUNIT_EXPECT_EQ_MSG(test, emc2305_test_hwmon_write(test, t->attr,
							   t->input),
			    t->ret, "%s", what);
	emc2305_test_expect_file(test, before, t->ret ? 0 : t->chans, t->duty,
				 what);
	KUNIT_EXPECT_EQ_MSG(test, emc2305_test_cdev_read(test, cdev,
							 "cur_state"),
			    t->ret ? state_before : t->state, "%s", what);
}

/*
 * cur_state rows, written through the thermal core's sysfs store (which
 * parses with sscanf("%ld") and refuses a negative value or one above
 * max_state with -EINVAL before the driver sees it).  @pre is a cur_state
 * written first.  The probe left the pwm floor at state 0.
 */
struct emc2305_state_case {
	int cfg;
	int cdev;
	const char *pre;
	const char *input;
	int ret;
	u8 duty;
	unsigned int chans;
};

static const struct emc2305_state_case emc2305_state_cases[] = {
	{ 0, 0, "5", "-9223372036854775808", -EINVAL },
	{ 0, 0, "5", "-1", -EINVAL },
	{ 0, 0, "5", "0", 0, 0, 0x1f },
	{ 0, 0, NULL, "1", 0, 26, 0x1f },
	{ 0, 0, NULL, "5", 0, 128, 0x1f },
	{ 0, 0, NULL, "9", 0, 230, 0x1f },
	{ 0, 0, NULL, "10", 0, 255, 0x1f },
	{ 0, 0, "5", "11", -EINVAL },
	{ 0, 0, "5", "9223372036854775807", -EINVAL },
	/* sscanf() wraps 2^64 - 1 to -1 */
	{ 0, 0, "5", "18446744073709551615", -EINVAL },
	{ 0, 0, "5", "warm", -EINVAL },
	{ 1, 2, "5", "-1", -EINVAL },
	{ 1, 2, "5", "0", 0, 0, 0x04 },
	{ 1, 2, NULL, "10", 0, 255, 0x04 },
	{ 1, 4, "5", "11", -EINVAL },
	{ 2, 0, "2", "0", 0, 0, 0x07 },
	{ 2, 0, NULL, "1", 0, 64, 0x07 },
	{ 2, 0, NULL, "3", 0, 191, 0x07 },
	{ 2, 0, NULL, "4", 0, 255, 0x07 },
	{ 2, 0, "2", "5", -EINVAL },
	{ 3, 1, NULL, "7", 0, 255, 0x02 },
	{ 3, 1, NULL, "6", 0, 219, 0x02 },	/* 218.57 */
	{ 3, 1, "6", "8", -EINVAL },
};

static void emc2305_state_desc(const struct emc2305_state_case *t, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s: cdev%d cur_state=%s%s%s -> %d",
		 emc2305_cfgs[t->cfg].name, t->cdev, t->input,
		 t->pre ? " after " : "", t->pre ? t->pre : "", t->ret);
}

/* Creates emc2305_state_gen_params() */
KUNIT_ARRAY_PARAM(emc2305_state, emc2305_state_cases, emc2305_state_desc);

static void hwmon_emc2305_test_cur_state_bounds(struct kunit *test)
{
	const struct emc2305_state_case *t = test->param_value;
	const struct emc2305_cfg *cfg = &emc2305_cfgs[t->cfg];
	long state_before;
	char what[96];
	u8 *before;

	emc2305_test_probe_cfg(test, cfg);
	if (t->pre)
		KUNIT_ASSERT_EQ(test, emc2305_test_cdev_write(test, t->cdev,
							      t->pre), 0);
	state_before = emc2305_test_cdev_read(test, t->cdev, "cur_state");
	before = hwmon_test_snapshot(test);
	snprintf(what, sizeof(what), "%s cdev%d cur_state=%s", cfg->name,
		 t->cdev, t->input);

	KUNIT_EXPECT_EQ_MSG(test, emc2305_test_cdev_write(test, t->cdev,
							  t->input),
			    t->ret, "%s", what);
	emc2305_test_expect_file(test, before, t->ret ? 0 : t->chans, t->duty,
				 what);
	if (!t->ret)
		KUNIT_ASSERT_EQ(test, kstrtol(t->input, 10, &state_before), 0);
	KUNIT_EXPECT_EQ_MSG(test, emc2305_test_cdev_read(test, t->cdev,
							 "cur_state"),
			    state_before, "%s", what);
}

/*
 * The driver's own set_cur_state() must refuse a state above max_state
 * (-EINVAL) and program nothing, whoever calls it: the sysfs path checks
 * first, the thermal governors do not, so call the op directly.
 */
static void hwmon_emc2305_test_set_cur_state_op(struct kunit *test)
{
	static const unsigned long bad[] = { 11, 12, 255, 256, LONG_MAX,
					     (unsigned long)LONG_MAX + 1,
					     ULONG_MAX };
	struct emc2305_ctx *ctx = test->priv;
	struct thermal_cooling_device *cdev;
	unsigned long state;
	u8 *before;
	int i;

	emc2305_test_probe_cfg(test, &emc2305_cfgs[0]);
	KUNIT_ASSERT_EQ(test, ctx->ncdev, 1);
	cdev = ctx->cdev[0];

	KUNIT_ASSERT_EQ(test, cdev->ops->set_cur_state(cdev, 5), 0);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		before = hwmon_test_snapshot(test);
		KUNIT_EXPECT_EQ_MSG(test, cdev->ops->set_cur_state(cdev, bad[i]),
				    -EINVAL, "state %lu", bad[i]);
		emc2305_test_expect_file(test, before, 0, 0, "set_cur_state");
		KUNIT_ASSERT_EQ(test, cdev->ops->get_cur_state(cdev, &state),
				0);
		KUNIT_EXPECT_EQ_MSG(test, state, 5, "state %lu", bad[i]);
	}

	before = hwmon_test_snapshot(test);
	KUNIT_EXPECT_EQ(test, cdev->ops->set_cur_state(cdev, 10), 0);
	emc2305_test_expect_file(test, before, 0x1f, 255, "set_cur_state 10");
	before = hwmon_test_snapshot(test);
	KUNIT_EXPECT_EQ(test, cdev->ops->set_cur_state(cdev, 0), 0);
	emc2305_test_expect_file(test, before, 0x1f, 0, "set_cur_state 0");
}

/*
 * Seeded random writes to pwmN and cur_state, checked against a model of
 * the driver's documented behaviour (struct emc2305_cdev_data's comment):
 * a pwm write sets the floor state f = round(pwm * max / 255) and is
 * programmed only when f is not below the last thermal request t; a
 * thermal request sets t and programs max(t, f).  The programmed duty is
 * round(state * 255 / max) on the cooling device's fans.  The default
 * seed is fixed so that a failure reproduces; every run prints it.  To
 * try others, boot with emc2305_test.seed=N (e.g. `kunit.py run
 * --kernel_args emc2305_test.seed=N`) or change the default below.
 */
static unsigned long long seed = 0x6b636f6e666f726dULL;
module_param(seed, ullong, 0444);
MODULE_PARM_DESC(seed, "seed of hwmon_emc2305_test_write_random");

#define EMC2305_RANDOM_ITERATIONS	1000

static void emc2305_cfg_desc(const struct emc2305_cfg *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

/* Creates emc2305_cfg_gen_params() */
KUNIT_ARRAY_PARAM(emc2305_cfg, emc2305_cfgs, emc2305_cfg_desc);

static long emc2305_round_div(long n, long d)
{
	return (n + d / 2) / d;
}

static void hwmon_emc2305_test_write_random(struct kunit *test)
{
	const struct emc2305_cfg *cfg = test->param_value;
	struct emc2305_ctx *ctx = test->priv;
	long floor[5] = {}, thermal[5] = {}, cur[5] = {};
	int nch, ncdev, i, ret, ch, idx;
	unsigned int chans;
	struct rnd_state rnd;
	char input[24], what[96];
	long max_state, state;
	u8 *before;
	bool sep;
	s64 v;

	emc2305_test_probe_cfg(test, cfg);
	max_state = cfg->use_pdata ? cfg->pdata.max_state : 10;
	sep = cfg->use_pdata && cfg->pdata.pwm_separate;
	nch = cfg->use_pdata ? cfg->pdata.pwm_num : 5;
	ncdev = sep ? nch : 1;
	KUNIT_ASSERT_EQ(test, ctx->ncdev, ncdev);

	kunit_info(test, "seed %llu (emc2305_test.seed=N to change), %d writes\n",
		   seed, EMC2305_RANDOM_ITERATIONS);
	prandom_seed_state(&rnd, seed);

	for (i = 0; i < EMC2305_RANDOM_ITERATIONS; i++) {
		bool pwm = prandom_u32_state(&rnd) & 1;

		ch = prandom_u32_state(&rnd) % (pwm ? nch : ncdev);
		idx = sep ? ch : 0;
		v = hwmon_test_draw(&rnd, 0, pwm ? 255 : max_state, 3);
		snprintf(input, sizeof(input), "%lld", v);

		/* the model */
		ret = 0;
		chans = 0;
		if (v < 0 || v > (pwm ? 255 : max_state)) {
			ret = -EINVAL;
		} else if (pwm) {
			floor[idx] = emc2305_round_div(v * max_state, 255);
			if (floor[idx] >= thermal[idx])
				cur[idx] = floor[idx];
		} else {
			thermal[idx] = v;
			cur[idx] = max_t(long, v, floor[idx]);
		}
		if (!ret && (!pwm || floor[idx] >= thermal[idx]))
			chans = sep ? BIT(idx) : GENMASK(nch - 1, 0);

		before = hwmon_test_snapshot(test);
		if (pwm) {
			char attr[8];

			snprintf(attr, sizeof(attr), "pwm%d", ch + 1);
			snprintf(what, sizeof(what), "seed %llu #%d %s=%s",
				 seed, i, attr, input);
			KUNIT_EXPECT_EQ_MSG(test,
					    emc2305_test_hwmon_write(test, attr,
								     input),
					    ret, "%s", what);
		} else {
			snprintf(what, sizeof(what),
				 "seed %llu #%d cdev%d cur_state=%s", seed, i,
				 ch, input);
			KUNIT_EXPECT_EQ_MSG(test,
					    emc2305_test_cdev_write(test, ch,
								    input),
					    ret, "%s", what);
		}
		if (emc2305_test_expect_file(test, before, chans,
					     emc2305_round_div(cur[idx] * 255,
							       max_state),
					     what))
			return;
		state = emc2305_test_cdev_read(test, sep ? idx : 0,
					       "cur_state");
		KUNIT_EXPECT_EQ_MSG(test, state, cur[idx], "%s", what);
		if (state != cur[idx])
			return;
		kunit_kfree(test, before);
	}
}

static struct kunit_case emc2305_test_cases[] = {
	KUNIT_CASE_PARAM(hwmon_emc2305_test_probe_product_id,
			 emc2305_id_gen_params),
	KUNIT_CASE_PARAM(hwmon_emc2305_test_probe_rejects_unknown,
			 emc2305_bad_id_gen_params),
	KUNIT_CASE_PARAM(hwmon_emc2305_test_fan_input, emc2305_tach_gen_params),
	KUNIT_CASE(hwmon_emc2305_test_fan_fault),
	KUNIT_CASE(hwmon_emc2305_test_pwm_read),
	KUNIT_CASE_PARAM(hwmon_emc2305_test_pwm_write, emc2305_pwm_gen_params),
	KUNIT_CASE(hwmon_emc2305_test_pwm_write_range),
	KUNIT_CASE(hwmon_emc2305_test_read_only_write),
	KUNIT_CASE(hwmon_emc2305_test_pwm_can_go_lower),
	KUNIT_CASE(hwmon_emc2305_test_pwm_floor_for_thermal),
	KUNIT_CASE_PARAM(hwmon_emc2305_test_cooling_max_state,
			 emc2305_cdev_gen_params),
	KUNIT_CASE(hwmon_emc2305_test_separate_pwm_min),
	KUNIT_CASE_PARAM(hwmon_emc2305_test_pwm_write_bounds,
			 emc2305_pwm_range_gen_params),
	KUNIT_CASE_PARAM(hwmon_emc2305_test_cur_state_bounds,
			 emc2305_state_gen_params),
	KUNIT_CASE(hwmon_emc2305_test_set_cur_state_op),
	KUNIT_CASE_PARAM(hwmon_emc2305_test_write_random,
			 emc2305_cfg_gen_params),
	{}
};

static struct kunit_suite emc2305_test_suite = {
	.name = "hwmon_emc2305",
	.init = emc2305_test_init,
	.exit = emc2305_test_exit,
	.test_cases = emc2305_test_cases,
};

kunit_test_suite(emc2305_test_suite);

MODULE_DESCRIPTION("KUnit tests for the EMC2301/2/3/5 hwmon driver");
MODULE_LICENSE("GPL");
