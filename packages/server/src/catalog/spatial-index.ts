// An R-tree (rbush) over the geometries resources hold at `spec.details.value` (geometric coverage).
import RBush from 'rbush';
import { bboxOf, type BBox } from '../geometry/jsts.js';
import { geometryOf, resolvePath } from '../oqs/resolve.js';
import type { Resource } from './resource.js';

/** The field paths this index answers for (both name the same geometry). */
export const INDEXED_PATHS: ReadonlySet<string> = new Set(['spec.details.value', 'spec.details.value.geometry']);
const PATH = ['spec', 'details', 'value'];

interface Item extends BBox {
  readonly uuid: string;
}

/** Boxes of resource geometries by uuid; `search` gives the uuids whose box intersects a box. */
export class SpatialIndex {
  private readonly tree = new RBush<Item>();
  private readonly items = new Map<string, Item>();

  /** Indexes (or re-indexes) a resource; a resource without a geometry is just removed. */
  put(r: Resource): void {
    this.remove(r.metadata.uuid);
    const g = geometryOf(resolvePath(r, PATH));
    if (!g || g.isEmpty()) return;
    const item: Item = { ...bboxOf(g), uuid: r.metadata.uuid };
    this.items.set(item.uuid, item);
    this.tree.insert(item);
  }

  remove(uuid: string): void {
    const old = this.items.get(uuid);
    if (!old) return;
    this.tree.remove(old);
    this.items.delete(uuid);
  }

  /** Uuids whose geometry box intersects `box`. */
  search(box: BBox): string[] {
    return this.tree.search(box).map((i) => i.uuid);
  }

  /** Bulk-builds the tree (faster than one insert per resource). */
  load(resources: Iterable<Resource>): void {
    const items: Item[] = [];
    for (const r of resources) {
      const g = geometryOf(resolvePath(r, PATH));
      if (!g || g.isEmpty()) continue;
      const item: Item = { ...bboxOf(g), uuid: r.metadata.uuid };
      this.items.set(item.uuid, item);
      items.push(item);
    }
    this.tree.load(items);
  }
}
