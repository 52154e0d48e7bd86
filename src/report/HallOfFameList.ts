/** GET /hall-of-fame (docs/presentation.md): the stored A+ domains, newest run first. */
import { Effect } from "effect"
import { HallOfFameStore } from "../store/HallOfFame.ts"

/** The hall of fame as stored; a database failure is a defect (the edge's 500). */
export const hallOfFame = Effect.flatMap(HallOfFameStore, (store) => Effect.orDie(store.list))
