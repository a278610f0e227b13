/**
 * `multiple` pagination (spec 03 §5.3.7): named scrollers; each job picks one by its
 * `scroller` member, or gets the `default` one, or none.
 */
import { childPath } from '../errors/configPath.ts';
import { UserError } from '../errors/UserError.ts';
import { phpString } from '../php/stringConversion.ts';
import { isEmpty, PhpArray, type Value } from '../php/value.ts';
import { OptionReader } from './options.ts';
import { strictType } from './optionNodes.ts';
import { registerPaginationMethod, type ScrollerSetup } from './registry.ts';
import { jobRequest, type JobInstance, type Scroller } from './scroller.ts';

export class MultipleScroller implements Scroller {
  private readonly scrollers: Map<string, Scroller>;
  private readonly defaultName: string | undefined;
  private readonly defaultPath: string;
  /** The entry used by the current job instance (null: no pagination). */
  private current: Scroller | null = null;

  constructor(scrollers: Map<string, Scroller>, defaultName: string | undefined, defaultPath: string) {
    this.scrollers = scrollers;
    this.defaultName = defaultName;
    this.defaultPath = defaultPath;
  }

  static create(setup: ScrollerSetup): MultipleScroller {
    const options = new OptionReader(setup.config, setup.path);
    const entries = options.get('scrollers');
    if (isEmpty(entries) || !(entries instanceof Map || Array.isArray(entries))) {
      throw new UserError('At least one scroller must be configured for "multiple" scroller.', { configPath: options.at('scrollers') });
    }
    const list: [string, Value][] = entries instanceof Map ? [...entries] : entries.map((v, i) => [String(i), v]);
    const scrollers = new Map<string, Scroller>();
    for (const [name, config] of list) {
      const entryPath = childPath(options.at('scrollers'), name);
      if (!(config instanceof PhpArray || Array.isArray(config))) {
        throw new UserError(`Scroller configuration for ${name}must be array.`, { configPath: entryPath });
      }
      scrollers.set(name, setup.build(config, entryPath));
    }
    return new MultipleScroller(scrollers, options.strictString('default'), options.at('default'));
  }

  private select(job: JobInstance): Scroller | null {
    const wanted = job.config.get('scroller');
    if (!isEmpty(wanted)) {
      const name = phpString(wanted!);
      const scroller = this.scrollers.get(name);
      if (scroller === undefined) {
        throw new UserError(`Scroller '${name}' not set in API definitions. Scrollers defined: ${[...this.scrollers.keys()].join(', ')}`, {
          configPath: `${job.path ?? 'job'}.scroller`,
        });
      }
      return scroller;
    }
    if (this.defaultName === undefined) return null;
    const scroller = this.scrollers.get(this.defaultName);
    if (scroller === undefined)
      throw new UserError(`Default scroller '${this.defaultName}' does not exist`, { configPath: this.defaultPath });
    return scroller;
  }

  firstRequest(job: JobInstance) {
    this.current = this.select(job);
    return this.current === null ? jobRequest(job) : this.current.firstRequest(job);
  }

  nextRequest(job: JobInstance, response: Value, records: readonly Value[]) {
    return this.current === null ? null : this.current.nextRequest(job, response, records);
  }

  reset(): void {
    for (const scroller of this.scrollers.values()) scroller.reset();
  }

  peek(job: JobInstance, ahead: number) {
    return this.current?.peek?.(job, ahead) ?? null;
  }

  forChild(childConfig: PhpArray): Scroller {
    const copies = new Map<string, Scroller>();
    for (const [name, scroller] of this.scrollers) copies.set(name, scroller.forChild(childConfig));
    return new MultipleScroller(copies, this.defaultName, this.defaultPath);
  }
}

registerPaginationMethod({
  method: 'multiple',
  description: 'Several named scrollers; a job uses the one named by its `scroller` member, else the `default` one, else no pagination.',
  options: {
    scrollers: {
      type: 'object',
      description: 'Required. Scroller name → a complete pagination configuration (method, options, stop conditions).',
      // The definition config/schema.ts assembles from every registered method.
      additionalProperties: { $ref: '#/definitions/pagination' },
      examples: [{ cursor: { method: 'cursor', idKey: 'id', param: 'since' } }],
    },
    default: {
      type: 'string',
      description: 'Name of the scroller for jobs without a `scroller` member. An entry merely named `default` is not used automatically.',
      examples: ['cursor'],
      ...strictType,
    },
  },
  required: ['scrollers'],
  example: {
    pagination: {
      method: 'multiple',
      scrollers: { pages: { method: 'pagenum' }, links: { method: 'response.url', urlKey: 'next' } },
      default: 'pages',
    },
    sends: 'Jobs with `"scroller": "links"` follow `next` links; all other jobs send `page=1`, `page=2`, …',
  },
  create: (setup) => MultipleScroller.create(setup),
});
