// SPDX-License-Identifier: GPL-2.0
/*
 * The algorithms the simulator knows: every tcp_congestion_ops dcc's
 * modules register, each by its module's name (sim/glue_<alg>.c).
 */
#include "dcc_sim.h"

extern const struct dcc_sim_alg dcc_sim_oscar, dcc_sim_ccc,
	dcc_sim_swift, dcc_sim_lswift, dcc_sim_mswift,
	dcc_sim_nscc, dcc_sim_mnscc,
	dcc_sim_timely, dcc_sim_timely_p, dcc_sim_sqcc;

const struct dcc_sim_alg *const dcc_sim_algs[DCC_SIM_NALGS + 1] = {
	&dcc_sim_oscar, &dcc_sim_ccc,
	&dcc_sim_swift, &dcc_sim_lswift, &dcc_sim_mswift,
	&dcc_sim_nscc, &dcc_sim_mnscc,
	&dcc_sim_timely, &dcc_sim_timely_p, &dcc_sim_sqcc,
	NULL
};
