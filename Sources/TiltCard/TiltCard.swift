import Attitude
